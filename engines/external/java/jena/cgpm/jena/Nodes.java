package cgpm.jena;

import cgpm.kit.Term;
import cgpm.kit.Triple;
import org.apache.jena.datatypes.TypeMapper;
import org.apache.jena.graph.Node;
import org.apache.jena.graph.NodeFactory;

import java.util.LinkedHashMap;
import java.util.Map;

/** Terms between the harness's canonical N-Triples strings and Jena's nodes, keeping each term's identity:
 *  lexical forms as spelt, blank nodes under their own labels, language tags lower case. */
final class Nodes {
    private Nodes() {
    }

    /** The nodes of the terms seen last: a typed literal's node parses its value when made, and terms recur. */
    private static final Map<String, Node> RECENT = new LinkedHashMap<>(1 << 12, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Node> eldest) {
            return size() > 100_000;
        }
    };

    static Node node(String text) {
        Node node = RECENT.get(text);
        if (node == null) {
            node = made(text);
            RECENT.put(text, node);
        }
        return node;
    }

    private static Node made(String text) {
        Term term = Term.parse(text);
        switch (term.kind()) {
            case IRI:
                return NodeFactory.createURI(term.value());
            case BLANK:
                return NodeFactory.createBlankNode(term.value());
            default:
                if (term.language() != null) {
                    return NodeFactory.createLiteral(term.value(), term.language());
                }
                if (Term.XSD_STRING.equals(term.datatype())) {
                    return NodeFactory.createLiteral(term.value());
                }
                return NodeFactory.createLiteral(term.value(), TypeMapper.getInstance().getSafeTypeByName(term.datatype()));
        }
    }

    static org.apache.jena.graph.Triple triple(Triple t) {
        return org.apache.jena.graph.Triple.create(node(t.s()), node(t.p()), node(t.o()));
    }

    /** The canonical N-Triples spelling of a node that ARQ bound. */
    static String text(Node node) {
        if (node.isURI()) {
            return Term.iri(node.getURI()).toString();
        }
        if (node.isBlank()) {
            return Term.blank(node.getBlankNodeLabel()).toString();
        }
        if (node.isLiteral()) {
            return Term.literal(node.getLiteralLexicalForm(), node.getLiteralDatatypeURI(),
                    node.getLiteralLanguage()).toString();
        }
        throw new IllegalStateException("ARQ bound a node that is no RDF term: " + node);
    }
}
