package cgpm.kit;

import com.google.gson.JsonObject;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilterReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The engine side of the process protocol: the hello, then one answer line for each line read, in order.
 *
 * <p>Answers are flushed when the input sent so far is handled, i.e. before the engine would wait for more (many
 * events come in one read: batching is where the speed is), and at least every second while a long read is being handled, so the harness never mistakes a
 * busy engine for a hung one. An exception while answering an event is written as an error line (the harness
 * names it with the event) and ends the process with exit code 1; its stack trace goes to stderr.
 */
public final class Protocol {
    private static final long FLUSH_NANOS = 1_000_000_000L;

    private Protocol() {
    }

    /** Serves {@code engine} on stdin and stdout until stdin closes, then exits. */
    public static void serve(String name, Capabilities capabilities, Engine engine) {
        int code;
        try {
            code = run(name, capabilities, engine, new FileInputStream(FileDescriptor.in),
                    new FileOutputStream(FileDescriptor.out));
        } catch (IOException error) {
            error.printStackTrace();
            code = 1;
        }
        System.exit(code);
    }

    /** The protocol over {@code in} and {@code out}; the exit code (0 when the input ended). */
    public static int run(String name, Capabilities capabilities, Engine engine, InputStream in, OutputStream out)
            throws IOException {
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        writer.write(Wire.hello(name, capabilities));
        writer.write('\n');
        writer.flush();
        // One streaming reader over the whole input (a reader a line costs more than the event it reads), which
        // flushes the answers each time it would wait for input: when all that was sent so far is answered.
        JsonReader reader = new JsonReader(new FlushingReader(
                new InputStreamReader(in, StandardCharsets.UTF_8), writer));
        reader.setLenient(true);  // one value after another, each on its line
        long flushed = System.nanoTime();
        JsonToken next;
        while ((next = reader.peek()) != JsonToken.END_DOCUMENT) {
            if (next == JsonToken.BEGIN_ARRAY) {
                Event event = null;
                try {
                    event = Wire.event(reader);
                    Wire.writeAnswer(writer, event.index(), engine.onEvent(event));
                } catch (RuntimeException | LinkageError | IOException error) {
                    return fail(writer, error, event == null ? "reading an event" : "event " + event.index());
                }
            } else if (!message(Wire.message(reader), engine, writer)) {
                return fail(writer, new IllegalArgumentException("unknown message"), "reading");
            }
            writer.write('\n');
            long now = System.nanoTime();
            if (now - flushed > FLUSH_NANOS) {  // a long read still answers as it goes
                writer.flush();
                flushed = now;
            }
        }
        writer.flush();
        return 0;
    }

    /** A reader that flushes {@code writer} before it waits for more input. */
    private static final class FlushingReader extends FilterReader {
        private final Writer writer;

        FlushingReader(Reader in, Writer writer) {
            super(in);
            this.writer = writer;
        }

        @Override
        public int read(char[] buffer, int offset, int length) throws IOException {
            if (!in.ready()) {
                writer.flush();
            }
            return in.read(buffer, offset, length);
        }
    }

    private static boolean message(JsonObject message, Engine engine, Writer writer) throws IOException {
        String type = message.get("type").getAsString();
        switch (type) {
            case "start" -> {
                try {
                    engine.start(Wire.query(message.getAsJsonObject("query")),
                            Wire.triples(message.getAsJsonArray("static")), Wire.triples(message.getAsJsonArray("schema")));
                    writer.write(Wire.typed("ready"));
                } catch (Refusal refusal) {
                    writer.write(Wire.error(refusal.getMessage()));
                } catch (RuntimeException | LinkageError error) {
                    error.printStackTrace();
                    writer.write(Wire.error(error.getClass().getSimpleName() + ": " + error.getMessage()));
                }
            }
            case "answers" -> writer.write(Wire.answers(engine.answers()));
            case "stats" -> writer.write(Wire.stats(engine.stats()));
            default -> {
                return false;
            }
        }
        return true;
    }

    private static int fail(Writer writer, Throwable error, String where) throws IOException {
        error.printStackTrace();
        writer.write(Wire.error(error.getClass().getSimpleName() + " at " + where + ": " + error.getMessage()));
        writer.write('\n');
        writer.flush();
        return 1;
    }

}
