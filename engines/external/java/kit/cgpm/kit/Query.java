package cgpm.kit;

import java.util.List;

/**
 * The query of the start message, in every form the harness sends (docs/external-engines.md, The protocol).
 *
 * @param variables       the mapping's variables in order, as {@code ?x}, query blank nodes as {@code ?_:b0}
 * @param patterns        triple patterns, each three terms or variables
 * @param filtersSparql   each FILTER's expression as SPARQL text
 * @param sparqlVariables {@code variables} as legal SPARQL variables ({@code ?_:b0} is {@code ?_bnode_b0})
 * @param selectSparql    {@code SELECT vars WHERE { patterns FILTER(...) }}: the whole query as plain SPARQL
 * @param text            the query as the user wrote it
 */
public record Query(String name, List<String> variables, List<List<String>> patterns, List<String> filtersSparql,
                    List<String> sparqlVariables, String selectSparql, WindowSpec window, String entailment,
                    String text) {

    /** The query's window: {@code kind} is "event", "sliding" or "unbounded"; range and slide in ms for sliding. */
    public record WindowSpec(String kind, long rangeMs, long slideMs) {
    }
}
