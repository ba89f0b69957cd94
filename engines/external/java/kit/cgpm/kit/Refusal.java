package cgpm.kit;

/** Thrown by {@link Engine#start} when the engine cannot run the query: its message is said to the user. */
public final class Refusal extends Exception {
    public Refusal(String message) {
        super(message);
    }
}
