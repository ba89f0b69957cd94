package cgpm.kit;

import java.util.List;

/** The change of the answers at one instant: mappings added and removed, each a list of terms in variables order. */
public record Delta(List<List<String>> added, List<List<String>> removed) {
    public static final Delta NONE = new Delta(List.of(), List.of());

    public boolean isEmpty() {
        return added.isEmpty() && removed.isEmpty();
    }
}
