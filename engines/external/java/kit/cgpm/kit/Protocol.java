package cgpm.kit;

import com.google.gson.JsonObject;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The engine side of the process protocol: the hello, then one answer line for each line read, in order.
 *
 * <p>Answers are flushed when the input read so far is handled (many events come in one read: batching is where
 * the speed is) and at least every second while a long read is being handled, so the harness never mistakes a
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
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        writer.write(Wire.hello(name, capabilities));
        writer.write('\n');
        writer.flush();
        long flushed = System.nanoTime();
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                continue;
            }
            if (line.charAt(0) == '[') {
                Event event = null;
                try {
                    event = Wire.event(line);
                    Wire.writeAnswer(writer, event.index(), engine.onEvent(event));
                } catch (RuntimeException | LinkageError | IOException error) {
                    String where = event == null ? "reading " + excerpt(line) : "event " + event.index();
                    return fail(writer, error, where);
                }
            } else if (!message(Wire.message(line), engine, writer)) {
                return fail(writer, new IllegalArgumentException("unknown message " + excerpt(line)), "reading");
            }
            writer.write('\n');
            long now = System.nanoTime();
            if (!reader.ready() || now - flushed > FLUSH_NANOS) {
                writer.flush();
                flushed = now;
            }
        }
        writer.flush();
        return 0;
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

    private static String excerpt(String line) {
        return line.length() <= 80 ? line : line.substring(0, 80) + "...";
    }
}
