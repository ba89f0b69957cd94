package cgpm.kit;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The protocol's lines (engines/external/wire.py) read and written with Gson: one JSON value a line, terms as
 * N-Triples strings. Event lines are read with Gson's streaming reader, without building a tree: they are most of
 * the traffic.
 */
public final class Wire {
    public static final int PROTOCOL = 1;

    private Wire() {
    }

    /** {@code [index, ts, [[op, s, p, o], ...]]}. */
    public static Event event(String line) throws IOException {
        return event(new JsonReader(new StringReader(line)));
    }

    /** The event whose array {@code reader} is at. */
    public static Event event(JsonReader reader) throws IOException {
        reader.beginArray();
        long index = reader.nextLong(), ts = reader.nextLong();
        List<Update> updates = new ArrayList<>(2);
        reader.beginArray();
        while (reader.hasNext()) {
            reader.beginArray();
            int op = reader.nextInt();
            updates.add(new Update(op, new Triple(reader.nextString(), reader.nextString(), reader.nextString())));
            reader.endArray();
        }
        reader.endArray();
        reader.endArray();
        return new Event(index, ts, updates);
    }

    @SuppressWarnings("deprecation")  // JsonParser.parseString is not in the Gson that Debian 12 ships (2.7)
    public static JsonObject message(String line) {
        return object(new JsonParser().parse(line), line);
    }

    /** The message (a JSON object) {@code reader} is at. */
    @SuppressWarnings("deprecation")
    public static JsonObject message(JsonReader reader) {
        JsonElement value = new JsonParser().parse(reader);
        return object(value, value.toString());
    }

    private static JsonObject object(JsonElement value, String line) {
        if (!value.isJsonObject()) {
            throw new IllegalArgumentException("expected a JSON object: " + line.substring(0, Math.min(80, line.length())));
        }
        return value.getAsJsonObject();
    }

    public static Query query(JsonObject q) {
        JsonObject w = q.getAsJsonObject("window");
        Query.WindowSpec window = new Query.WindowSpec(w.get("kind").getAsString(), longOr(w, "range_ms"),
                longOr(w, "slide_ms"));
        List<List<String>> patterns = new ArrayList<>();
        for (JsonElement pattern : q.getAsJsonArray("patterns")) {
            patterns.add(strings(pattern.getAsJsonArray()));
        }
        return new Query(q.get("name").getAsString(), strings(q.getAsJsonArray("variables")), patterns,
                strings(q.getAsJsonArray("filters_sparql")), strings(q.getAsJsonArray("sparql_variables")),
                q.get("select_sparql").getAsString(), window, q.get("entailment").getAsString(),
                q.get("text").getAsString());
    }

    public static List<Triple> triples(JsonArray array) {
        List<Triple> triples = new ArrayList<>(array.size());
        for (JsonElement element : array) {
            JsonArray t = element.getAsJsonArray();
            triples.add(new Triple(t.get(0).getAsString(), t.get(1).getAsString(), t.get(2).getAsString()));
        }
        return triples;
    }

    /** An event's answer: {@code []}, or {@code [index, [added...], [removed...]]}. */
    public static void writeAnswer(Writer out, long index, Delta delta) throws IOException {
        if (delta.isEmpty()) {
            out.write("[]");
            return;
        }
        JsonWriter writer = new JsonWriter(out);  // writes straight through: nothing to flush or close
        writer.beginArray().value(index);
        writeMappings(writer, delta.added());
        writeMappings(writer, delta.removed());
        writer.endArray();
    }

    public static String hello(String name, Capabilities c) throws IOException {
        StringWriter text = new StringWriter();
        JsonWriter w = new JsonWriter(text);
        w.beginObject().name("type").value("hello").name("protocol").value(PROTOCOL).name("name").value(name);
        w.name("capabilities").beginObject();
        w.name("windows");
        writeStrings(w, c.windows());
        w.name("deletions").value(c.deletions()).name("entailment");
        writeStrings(w, c.entailment());
        w.name("static").value(c.statics()).name("filters").value(c.filters()).name("output").value(c.output());
        w.name("matches").value(c.matches()).name("streams").value(1).name("profiles");
        writeStrings(w, List.of("cgpm"));  // the wire carries deltas, under the cgpm profile alone
        w.endObject().endObject();
        return text.toString();
    }

    public static String typed(String type) throws IOException {
        StringWriter text = new StringWriter();
        new JsonWriter(text).beginObject().name("type").value(type).endObject();
        return text.toString();
    }

    public static String error(String message) throws IOException {
        StringWriter text = new StringWriter();
        new JsonWriter(text).beginObject().name("type").value("error").name("message").value(message).endObject();
        return text.toString();
    }

    public static String answers(Collection<List<String>> answers) throws IOException {
        StringWriter text = new StringWriter();
        JsonWriter w = new JsonWriter(text);
        w.beginObject().name("type").value("answers").name("answers");
        writeMappings(w, answers);
        w.endObject();
        return text.toString();
    }

    public static String stats(Map<String, Long> stats) throws IOException {
        StringWriter text = new StringWriter();
        JsonWriter w = new JsonWriter(text);
        w.beginObject().name("type").value("stats").name("stats").beginObject();
        for (Map.Entry<String, Long> entry : stats.entrySet()) {
            w.name(entry.getKey()).value(entry.getValue());
        }
        w.endObject().endObject();
        return text.toString();
    }

    private static void writeMappings(JsonWriter w, Collection<List<String>> mappings) throws IOException {
        w.beginArray();
        for (List<String> mapping : mappings) {
            writeStrings(w, mapping);
        }
        w.endArray();
    }

    private static void writeStrings(JsonWriter w, Collection<String> strings) throws IOException {
        w.beginArray();
        for (String s : strings) {
            w.value(s);
        }
        w.endArray();
    }

    private static List<String> strings(JsonArray array) {
        List<String> strings = new ArrayList<>(array.size());
        for (JsonElement element : array) {
            strings.add(element.getAsString());
        }
        return strings;
    }

    private static long longOr(JsonObject object, String key) {
        JsonElement value = object.get(key);
        return value == null || value.isJsonNull() ? 0 : value.getAsLong();
    }
}
