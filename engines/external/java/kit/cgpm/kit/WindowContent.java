package cgpm.kit;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The window's dynamic graph D(tau) after each event, as DESIGN.md section 2 defines it, and how it changed.
 *
 * <ul>
 *   <li>{@code sliding(range, slide)} (tumbling: slide = range): at instant tau the triples of the events processed
 *       so far with {@code tau_b <= ts <= tau}, {@code tau_b = (floor((tau - range) / slide) + 1) * slide}; a triple
 *       seen twice is there once and leaves with its last occurrence;</li>
 *   <li>{@code event}: the current event's triples alone;</li>
 *   <li>{@code unbounded}: every update so far applied in order (inserting a present triple or deleting an absent
 *       one changes nothing).</li>
 * </ul>
 * {@link #advance} returns the triples that entered and left, so a store can be kept by difference.
 */
public final class WindowContent {

    /** The triples that entered and left the window at one event; a triple that left and came back is in neither. */
    public record Change(Set<Triple> entered, Set<Triple> left) {
        public boolean isEmpty() {
            return entered.isEmpty() && left.isEmpty();
        }
    }

    private record Occurrence(long ts, Triple triple) {
    }

    private final Query.WindowSpec window;
    private final Map<Triple, Integer> occurrences = new HashMap<>();  // sliding: how often each triple is in it
    private final ArrayDeque<Occurrence> byTime = new ArrayDeque<>();   // sliding: in stream order
    private Set<Triple> triples = new HashSet<>();                     // event and unbounded

    public WindowContent(Query.WindowSpec window) {
        String kind = window.kind();
        if (!kind.equals("sliding") && !kind.equals("event") && !kind.equals("unbounded")) {
            throw new IllegalArgumentException("unknown window kind " + kind);
        }
        this.window = window;
    }

    /** The content now. */
    public Set<Triple> triples() {
        return Collections.unmodifiableSet(window.kind().equals("sliding") ? occurrences.keySet() : triples);
    }

    /** Moves the window to {@code event}'s instant with its updates; what entered and what left. */
    public Change advance(Event event) {
        switch (window.kind()) {
            case "event":
                return replaceByEvent(event);
            case "unbounded":
                return applyInOrder(event);
            default:
                return slide(event);
        }
    }

    private Change replaceByEvent(Event event) {
        Set<Triple> next = new HashSet<>();
        for (Update update : event.updates()) {
            insertOnly(update, event);
            next.add(update.triple());
        }
        Set<Triple> entered = new HashSet<>(next);
        entered.removeAll(triples);
        Set<Triple> left = new HashSet<>(triples);
        left.removeAll(next);
        triples = next;
        return new Change(entered, left);
    }

    private Change applyInOrder(Event event) {
        Map<Triple, Boolean> before = new LinkedHashMap<>();  // each touched triple: was it there before the event
        for (Update update : event.updates()) {
            Triple triple = update.triple();
            before.putIfAbsent(triple, triples.contains(triple));
            if (update.isInsert()) {
                triples.add(triple);
            } else {
                triples.remove(triple);
            }
        }
        return changeOf(before, triples);
    }

    private Change slide(Event event) {
        Map<Triple, Boolean> before = new LinkedHashMap<>();
        for (Update update : event.updates()) {
            insertOnly(update, event);
            Triple triple = update.triple();
            before.putIfAbsent(triple, occurrences.containsKey(triple));
            occurrences.merge(triple, 1, Integer::sum);
            byTime.addLast(new Occurrence(event.ts(), triple));
        }
        long range = window.rangeMs(), step = window.slideMs();
        long begin = (Math.floorDiv(event.ts() - range, step) + 1) * step;
        while (!byTime.isEmpty() && byTime.peekFirst().ts() < begin) {
            Triple triple = byTime.pollFirst().triple();
            before.putIfAbsent(triple, true);
            occurrences.computeIfPresent(triple, (t, n) -> n == 1 ? null : n - 1);
        }
        return changeOf(before, occurrences.keySet());
    }

    private static Change changeOf(Map<Triple, Boolean> before, Set<Triple> now) {
        Set<Triple> entered = new HashSet<>(), left = new HashSet<>();
        for (Map.Entry<Triple, Boolean> touched : before.entrySet()) {
            boolean present = now.contains(touched.getKey());
            if (present && !touched.getValue()) {
                entered.add(touched.getKey());
            } else if (!present && touched.getValue()) {
                left.add(touched.getKey());
            }
        }
        return new Change(entered, left);
    }

    private void insertOnly(Update update, Event event) {
        if (!update.isInsert()) {
            throw new IllegalArgumentException("event " + event.index() + " deletes a triple: a " + window.kind()
                    + " window takes inserts only (deletions come with unbounded windows)");
        }
    }
}
