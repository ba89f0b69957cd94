package cgpm.kit;

import java.util.List;

/** Event {@code index} (numbered from 0) at timestamp {@code ts} (milliseconds), its updates in stream order. */
public record Event(long index, long ts, List<Update> updates) {
}
