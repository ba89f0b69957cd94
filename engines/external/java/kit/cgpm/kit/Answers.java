package cgpm.kit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The answers an engine holds, and the delta of each new set of them: for engines that re-evaluate the query. */
public final class Answers {
    private Set<List<String>> current = new HashSet<>();

    /** The answers now. */
    public Collection<List<String>> current() {
        return Collections.unmodifiableSet(current);
    }

    /** Makes {@code next} the answers and says what was added and removed. */
    public Delta replace(Set<List<String>> next) {
        List<List<String>> added = new ArrayList<>(), removed = new ArrayList<>();
        for (List<String> mapping : next) {
            if (!current.contains(mapping)) {
                added.add(mapping);
            }
        }
        for (List<String> mapping : current) {
            if (!next.contains(mapping)) {
                removed.add(mapping);
            }
        }
        current = next;
        return added.isEmpty() && removed.isEmpty() ? Delta.NONE : new Delta(added, removed);
    }

    public int size() {
        return current.size();
    }
}
