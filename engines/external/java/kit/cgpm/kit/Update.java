package cgpm.kit;

/** One update of an event: {@code op} is 1 (insert) or -1 (delete). */
public record Update(int op, Triple triple) {
    public boolean isInsert() {
        return op > 0;
    }
}
