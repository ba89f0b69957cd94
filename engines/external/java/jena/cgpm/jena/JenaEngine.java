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
import org.apache.jena.graph.Node;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.QueryParseException;
import org.apache.jena.sparql.algebra.Algebra;
import org.apache.jena.sparql.algebra.Op;
import org.apache.jena.sparql.core.Var;
import org.apache.jena.sparql.expr.ExprEvalException;
import org.apache.jena.sparql.engine.binding.Binding;
import org.apache.jena.query.ARQ;
import org.apache.jena.sparql.ARQConstants;
import org.apache.jena.sparql.core.DatasetGraphFactory;
import org.apache.jena.sparql.engine.ExecutionContext;
import org.apache.jena.sparql.engine.QueryIterator;
import org.apache.jena.sparql.engine.iterator.QueryIterRoot;
import org.apache.jena.sparql.engine.main.QC;
import org.apache.jena.sparql.util.Context;
import org.apache.jena.sparql.util.NodeFactoryExtra;
import org.apache.jena.sparql.graph.GraphFactory;
import org.apache.jena.sparql.syntax.ElementFilter;
import org.apache.jena.sparql.syntax.ElementGroup;
import org.apache.jena.sparql.syntax.ElementTriplesBlock;
import org.apache.jena.sparql.util.ExprUtils;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
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
 * and evaluates when the window changed (the answers cannot change otherwise). {@code RELOAD} builds a new graph of the static and window triples at every
 * event and evaluates it, as TP-Join's paper used Jena. Either way ARQ answers the query's basic graph pattern and
 * FILTERs, and the answer is the difference from the previous instant's.
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
    private Op plan;
    private Context context;
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
        variables = new ArrayList<>();
        for (String variable : query.sparqlVariables()) {
            variables.add(Var.alloc(variable.substring(1)));
        }
        // compiled and optimised once, and run by ARQ's executor (QC) over each instant's graph: per evaluation,
        // QueryExec (and Algebra.exec) would compile or optimise it again and format the time of day for NOW(),
        // which cost 10 times what matching a window of a dozen triples does (0.5 ms an evaluation on this machine)
        context = ARQ.getContext().copy();
        context.set(ARQConstants.sysCurrentTime, NodeFactoryExtra.nowAsDateTime());
        plan = Algebra.optimize(Algebra.compile(arqQuery(query, variables)), context);
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

    /**
     * The query as ARQ's syntax tree: the patterns from their terms, so each IRI stays as spelt (ARQ's parser
     * would remove the dot segments of {@code <eXAMPLE://a/./b/../b/c>}, which then matches no data triple), and
     * the FILTERs parsed from their SPARQL text.
     */
    private static org.apache.jena.query.Query arqQuery(Query query, List<Var> variables) throws Refusal {
        Map<String, Var> named = new HashMap<>();
        for (int i = 0; i < variables.size(); i++) {
            named.put(query.variables().get(i), variables.get(i));
        }
        ElementTriplesBlock block = new ElementTriplesBlock();
        for (List<String> pattern : query.patterns()) {
            Node[] nodes = new Node[3];
            for (int i = 0; i < 3; i++) {
                String item = pattern.get(i);
                nodes[i] = item.startsWith("?") ? named.get(item) : Nodes.node(item);
            }
            block.addTriple(org.apache.jena.graph.Triple.create(nodes[0], nodes[1], nodes[2]));
        }
        ElementGroup group = new ElementGroup();
        group.addElement(block);
        for (String filter : query.filtersSparql()) {
            try {
                group.addElementFilter(new ElementFilter(ExprUtils.parse(filter)));
            } catch (QueryParseException | ExprEvalException error) {
                // e.g. REGEX's flag "x", which ARQ 4.5 does not take (XPath's fn:matches does)
                throw new Refusal("ARQ cannot evaluate the FILTER " + filter + ": " + error.getMessage());
            }
        }
        org.apache.jena.query.Query arq = QueryFactory.make();
        arq.setQuerySelectType();
        arq.setQueryPattern(group);
        if (variables.isEmpty()) {
            arq.setQueryResultStar(true);  // a ground pattern: one empty solution when it holds
        }
        for (Var variable : variables) {
            arq.addResultVar(variable);
        }
        return arq;
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
        ExecutionContext where = new ExecutionContext(context, graph, DatasetGraphFactory.wrap(graph),
                QC.getFactory(context));
        QueryIterator rows = QC.execute(plan, QueryIterRoot.create(where), where);
        try {
            while (rows.hasNext()) {
                Binding row = rows.next();
                List<String> mapping = new ArrayList<>(variables.size());
                for (Var variable : variables) {
                    mapping.add(Nodes.text(row.get(variable)));
                }
                found.add(mapping);
            }
        } finally {
            rows.close();
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
