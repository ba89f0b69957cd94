package cgpm.kit;

import java.util.List;

/**
 * What an engine runs, declared in its hello; must equal the {@code [capabilities]} table of its descriptor.
 *
 * @param windows    of "event", "sliding", "unbounded" (a tumbling window is a sliding one with slide = range)
 * @param deletions  whether it takes deletions (with unbounded windows)
 * @param entailment of "none", "rdfs"
 * @param statics    whether it joins a static graph
 * @param filters    whether it evaluates FILTERs
 * @param output     "delta" (added and removed answers) or "istream" (added only)
 * @param matches    false for a cost floor that matches nothing
 */
public record Capabilities(List<String> windows, boolean deletions, List<String> entailment, boolean statics,
                           boolean filters, String output, boolean matches) {

    /** Every window kind, deletions, no entailment, static data and FILTERs, deltas: a SPARQL store's usual set. */
    public static Capabilities sparqlStore() {
        return new Capabilities(List.of("event", "sliding", "unbounded"), true, List.of("none"), true, true, "delta",
                true);
    }
}
