package cgpm.jena;

import cgpm.kit.Answers;
import cgpm.kit.Delta;
import cgpm.kit.Engine;
import cgpm.kit.Event;
import cgpm.kit.Query;
import cgpm.kit.Refusal;
import cgpm.kit.Triple;
import cgpm.kit.WindowContent;
import org.apache.jena.graph.Graph;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.QueryParseException;
import org.apache.jena.sparql.core.Var;
import org.apache.jena.sparql.engine.binding.Binding;
import org.apache.jena.sparql.exec.QueryExec;
import org.apache.jena.sparql.exec.RowSet;
import org.apache.jena.sparql.graph.GraphFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Jena ARQ re-evaluating the query over the window's triples at each instant, as C-SPARQL evaluates each window.
 *
 * <p>{@code INCREMENTAL} keeps the window's triples and the static graph in one Jena in-memory graph, changed by
 * difference at each event (what entered the window is added, what left is deleted unless the static graph has it),
 * and evaluates when the window changed. {@code RELOAD} builds a new graph of the static and window triples at every
 * event and evaluates it, as TP-Join's paper used Jena. Either way ARQ answers the harness's {@code select_sparql}
 * and the answer is the difference from the previous instant's.
 *
 * <p>The store is a plain graph (term identity, as RDF 1.1 and the oracle): Jena's default in-memory graph matches
 * literals by value, so {@code "01"^^xsd:integer} would match a pattern's {@code "1"^^xsd:integer}. The system
 * property {@code cgpm.jena.store=mem} selects that graph, to show the difference (docs/external-engines.md).
 * {@code cgpm.jena.plant=drop-one-answer} plants a fault (the first answer found is never reported), for the test
 * that proves verification catches it.
 */
public final class JenaEngine implements Engine {
    public enum Mode { INCREMENTAL, RELOAD }

    private final Mode mode;
    private final boolean valueStore = "mem".equals(System.getProperty("cgpm.jena.store", "plain"));
    private final boolean dropOne = "drop-one-answer".equals(System.getProperty("cgpm.jena.plant", ""));
    private final Answers answers = new Answers();
    private org.apache.jena.query.Query arq;
    private List<Var> variables;
    private WindowContent window;
    private Set<Triple> staticTriples;
    private Graph graph;
    private boolean first = true;
    private List<String> dropped;
    private long evaluations;

    public JenaEngine(Mode mode) {
        this.mode = mode;
    }

    @Override
    public void start(Query query, List<Triple> staticData, List<Triple> schema) throws Refusal {
        if (!query.entailment().equals("none")) {
            throw new Refusal("entailment " + query.entailment() + " is not supported (ARQ evaluates plain SPARQL)");
        }
        try {
            arq = QueryFactory.create(query.selectSparql());
        } catch (QueryParseException error) {
            throw new Refusal("ARQ cannot parse the query: " + error.getMessage());
        }
        variables = new ArrayList<>();
        for (String variable : query.sparqlVariables()) {
            variables.add(Var.alloc(variable.substring(1)));
        }
        window = new WindowContent(query.window());
        staticTriples = new HashSet<>(staticData);
        graph = loaded(List.of());
    }

    @Override
    public Delta onEvent(Event event) {
        WindowContent.Change change = window.advance(event);
        if (mode == Mode.RELOAD) {
            graph = loaded(window.triples());
        } else {
            if (change.isEmpty() && !first) {
                return Delta.NONE;
            }
            for (Triple left : change.left()) {
                if (!staticTriples.contains(left)) {
                    graph.delete(Nodes.triple(left));
                }
            }
            for (Triple entered : change.entered()) {
                graph.add(Nodes.triple(entered));
            }
        }
        first = false;
        return answers.replace(evaluate());
    }

    private Graph loaded(Collection<Triple> windowTriples) {
        Graph fresh = valueStore ? GraphFactory.createGraphMem() : GraphFactory.createPlainGraph();
        for (Triple triple : staticTriples) {
            fresh.add(Nodes.triple(triple));
        }
        for (Triple triple : windowTriples) {
            fresh.add(Nodes.triple(triple));
        }
        return fresh;
    }

    private Set<List<String>> evaluate() {
        evaluations++;
        Set<List<String>> found = new HashSet<>();
        try (QueryExec exec = QueryExec.graph(graph).query(arq).build()) {
            RowSet rows = exec.select();
            while (rows.hasNext()) {
                Binding row = rows.next();
                List<String> mapping = new ArrayList<>(variables.size());
                for (Var variable : variables) {
                    mapping.add(Nodes.text(row.get(variable)));
                }
                found.add(mapping);
            }
        }
        return dropOne ? withoutOne(found) : found;
    }

    /** The planted fault: the first answer ever found (the least, for a reproducible choice) never shows. */
    private Set<List<String>> withoutOne(Set<List<String>> found) {
        if (dropped == null && !found.isEmpty()) {
            dropped = found.stream().min(Comparator.comparing(List::toString)).orElseThrow();
        }
        found.remove(dropped);
        return found;
    }

    @Override
    public Collection<List<String>> answers() {
        return answers.current();
    }

    @Override
    public Map<String, Long> stats() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("answers", (long) answers.size());
        stats.put("window_triples", (long) window.triples().size());
        stats.put("evaluations", evaluations);
        return stats;
    }
}
