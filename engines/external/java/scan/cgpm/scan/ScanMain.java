package cgpm.scan;

import cgpm.kit.Capabilities;
import cgpm.kit.Delta;
import cgpm.kit.Engine;
import cgpm.kit.Event;
import cgpm.kit.Protocol;
import cgpm.kit.Query;
import cgpm.kit.Triple;
import cgpm.kit.Update;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The scan cost floor in Java: reads every term of every update and matches nothing. Beside {@code scan}
 *  in-process (and {@code scan-js}) it measures what the process protocol and the kit cost a Java engine. */
public final class ScanMain implements Engine {
    private long triples, characters;

    @Override
    public void start(Query query, List<Triple> staticTriples, List<Triple> schema) {
    }

    @Override
    public Delta onEvent(Event event) {
        for (Update update : event.updates()) {
            Triple t = update.triple();
            characters += t.s().length() + t.p().length() + t.o().length();
        }
        triples += event.updates().size();
        return Delta.NONE;
    }

    @Override
    public Collection<List<String>> answers() {
        return List.of();
    }

    @Override
    public Map<String, Long> stats() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("triples", triples);
        stats.put("term_characters", characters);
        return stats;
    }

    public static void main(String[] args) {
        Protocol.serve("scan-java", new Capabilities(List.of("event", "sliding", "unbounded"), true,
                List.of("none", "rdfs"), true, true, "delta", false), new ScanMain());
    }
}
