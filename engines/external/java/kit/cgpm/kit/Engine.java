package cgpm.kit;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What a Java engine implements to run behind cgpm-bench's process protocol ({@link Protocol#serve}).
 *
 * <p>The harness calls {@link #start} once, then {@link #onEvent} once per event in stream order; each event's
 * answer is the change of the query's answers at its instant (DESIGN.md section 2: {@code M(tau_i) - M(tau_i-1)}
 * added, the reverse removed). A mapping is a list of N-Triples terms in {@link Query#variables()} order.
 */
public interface Engine {

    /** Takes the query and the data; throws {@link Refusal} when this engine cannot run the query (reported as
     *  the engine refusing it, status {@code unsupported}). */
    void start(Query query, List<Triple> staticTriples, List<Triple> schema) throws Refusal;

    /** The change of the answers after {@code event}; {@link Delta#NONE} when they did not change. */
    Delta onEvent(Event event);

    /** The answers now, each a mapping in {@link Query#variables()} order. */
    Collection<List<String>> answers();

    /** Counters the engine wants to report ({@code cgpm run} prints them); none by default. */
    default Map<String, Long> stats() {
        return Map.of();
    }
}
