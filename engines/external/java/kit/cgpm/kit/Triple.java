package cgpm.kit;

/** One RDF triple, each term an N-Triples string in the harness's canonical form (see {@link Term}). */
public record Triple(String s, String p, String o) {
    @Override
    public String toString() {
        return s + " " + p + " " + o + " .";
    }
}
