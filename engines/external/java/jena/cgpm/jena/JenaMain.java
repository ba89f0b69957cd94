package cgpm.jena;

import cgpm.kit.Capabilities;
import cgpm.kit.Protocol;

/** {@code java cgpm.jena.JenaMain incremental|reload}: the {@code jena} or {@code jena-reload} external engine. */
public final class JenaMain {
    private JenaMain() {
    }

    public static void main(String[] args) {
        if (args.length != 1 || !(args[0].equals("incremental") || args[0].equals("reload"))) {
            System.err.println("usage: java cgpm.jena.JenaMain incremental|reload");
            System.exit(2);
        }
        boolean reload = args[0].equals("reload");
        Protocol.serve(reload ? "jena-reload" : "jena", Capabilities.sparqlStore(),
                new JenaEngine(reload ? JenaEngine.Mode.RELOAD : JenaEngine.Mode.INCREMENTAL));
    }
}
