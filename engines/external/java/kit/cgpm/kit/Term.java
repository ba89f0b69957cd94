package cgpm.kit;

/**
 * An N-Triples term read into its parts, and written back in the harness's canonical form (DESIGN.md section 2).
 *
 * <p>The harness sends every term canonical: {@code "x"^^xsd:string} is written {@code "x"}, language tags are lower
 * case, a lexical form keeps its spelling ({@code "01"^^xsd:integer} is not {@code "1"^^xsd:integer}) and escapes
 * only {@code \\ \" \n \r}; an IRI keeps {@code \}{@code uXXXX} for characters that may not stand in it raw.
 * An engine that treats terms as opaque strings needs none of this; one that hands them to a store
 * (as the Jena driver does) reads them with {@link #parse} and writes its answers with {@link #toString}.
 *
 * @param kind     IRI, BLANK or LITERAL
 * @param value    the IRI (unescaped), the blank node's label, or the literal's lexical form (unescaped)
 * @param datatype a literal's datatype IRI; {@link #XSD_STRING} for a simple literal, {@link #RDF_LANG_STRING} with a
 *                 language; null for IRIs and blank nodes
 * @param language a literal's language tag, lower case, else null
 */
public record Term(Kind kind, String value, String datatype, String language) {
    public enum Kind { IRI, BLANK, LITERAL }

    public static final String XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";
    public static final String RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";

    public static Term iri(String iri) {
        return new Term(Kind.IRI, iri, null, null);
    }

    public static Term blank(String label) {
        return new Term(Kind.BLANK, label, null, null);
    }

    /** A literal; {@code datatype} null for a simple literal, {@code language} null unless a language-tagged one. */
    public static Term literal(String lexical, String datatype, String language) {
        if (language != null && !language.isEmpty()) {
            return new Term(Kind.LITERAL, lexical, RDF_LANG_STRING, language.toLowerCase(java.util.Locale.ROOT));
        }
        return new Term(Kind.LITERAL, lexical, datatype == null ? XSD_STRING : datatype, null);
    }

    /** The parts of one N-Triples term; IllegalArgumentException naming it when it is not one. */
    public static Term parse(String text) {
        if (text.length() > 1 && text.charAt(0) == '<' && text.charAt(text.length() - 1) == '>') {
            return iri(unescape(text.substring(1, text.length() - 1)));
        }
        if (text.startsWith("_:") && text.length() > 2) {
            return blank(text.substring(2));
        }
        if (text.startsWith("\"")) {
            int close = text.lastIndexOf('"');
            if (close > 0) {
                String lexical = unescape(text.substring(1, close));
                String rest = text.substring(close + 1);
                if (rest.isEmpty()) {
                    return literal(lexical, null, null);
                }
                if (rest.startsWith("@") && rest.length() > 1) {
                    return literal(lexical, null, rest.substring(1));
                }
                if (rest.startsWith("^^<") && rest.endsWith(">")) {
                    return literal(lexical, unescape(rest.substring(3, rest.length() - 1)), null);
                }
            }
        }
        throw new IllegalArgumentException("not an N-Triples term: " + text);
    }

    /** The canonical N-Triples spelling. */
    @Override
    public String toString() {
        switch (kind) {
            case IRI:
                return "<" + escapeIri(value) + ">";
            case BLANK:
                return "_:" + value;
            default:
                String body = "\"" + escapeLexical(value) + "\"";
                if (language != null) {
                    return body + "@" + language;
                }
                return XSD_STRING.equals(datatype) ? body : body + "^^<" + escapeIri(datatype) + ">";
        }
    }

    static String escapeLexical(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String escape = c == '\\' ? "\\\\" : c == '"' ? "\\\"" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : null;
            if (escape != null && out == null) {
                out = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (out != null) {
                if (escape != null) {
                    out.append(escape);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? text : out.toString();
    }

    /** Characters that may not stand raw in an N-Triples IRI are written as upper-case UCHAR escapes. */
    static String escapeIri(String iri) {
        StringBuilder out = null;
        for (int i = 0; i < iri.length(); i++) {
            char c = iri.charAt(i);
            boolean raw = c > 0x20 && "<>\"{}|^`\\".indexOf(c) < 0;
            if (!raw && out == null) {
                out = new StringBuilder(iri.length() + 8).append(iri, 0, i);
            }
            if (out != null) {
                if (raw) {
                    out.append(c);
                } else {
                    out.append(String.format("\\u%04X", (int) c));
                }
            }
        }
        return out == null ? iri : out.toString();
    }

    static String unescape(String text) {
        if (text.indexOf('\\') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\' || i + 1 == text.length()) {
                out.append(c);
                continue;
            }
            char e = text.charAt(++i);
            switch (e) {
                case 't' -> out.append('\t');
                case 'b' -> out.append('\b');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 'f' -> out.append('\f');
                case 'u', 'U' -> {
                    int digits = e == 'u' ? 4 : 8;
                    out.appendCodePoint(Integer.parseInt(text.substring(i + 1, i + 1 + digits), 16));
                    i += digits;
                }
                default -> out.append(e);
            }
        }
        return out.toString();
    }
}
