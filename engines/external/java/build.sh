#!/usr/bin/env bash
# Builds the Java kit of the external-engine protocol and the Java engines on it (docs/external-engines.md) into
# build/ (git-ignored), with plain javac against jars Debian ships, no Maven:
#   build/kit/, build/kit.classpath     the kit (cgpm.kit) and the classpath a user's engine compiles and runs with
#   build/scan/, build/scan-java.args   the scan cost floor (`java @build/scan-java.args`)
#   build/jena/, build/jena.args        Jena ARQ's driver (`java @build/jena.args incremental|reload`)
# Jars come from /usr/share/java (Debian's libgoogle-gson-java and libapache-jena-java), or from $JENA_HOME/lib (a
# Jena binary distribution, which bundles Gson). Without javac, or without Jena, it says what to install and exits 0:
# the engines are then listed as unavailable with that command.
set -u
cd "$(dirname "$0")"
here=$(pwd)
jars=${CGPM_JAVA_JARS:-/usr/share/java}
jena_home_lib=${JENA_HOME:+$JENA_HOME/lib}

if ! command -v javac >/dev/null 2>&1; then
  echo "external engines: javac not found, so the Java engines (jena, jena-reload, scan-java) are not built;" \
       "install a JDK: sudo apt-get install -y openjdk-17-jdk-headless (macOS: brew install openjdk@17)" >&2
  exit 0
fi

# the first of the named jars found, in $JENA_HOME/lib first when set, then in $jars
find_jar() {
  local name
  for name in "$@"; do
    for dir in ${jena_home_lib:+"$jena_home_lib"} "$jars"; do
      for found in "$dir"/$name; do
        [ -f "$found" ] && { echo "$found"; return 0; }
      done
    done
  done
  return 1
}

# rebuilt only when a source or this script is newer than the stamp, or the stamp names another folder (the
# checkout moved: the argument files hold absolute paths): `make test` runs this every time
up_to_date() {
  local stamp=$1; shift
  [ -f "$stamp" ] && grep -qF -- "$here" "$stamp" &&
    [ -z "$(find "$@" build.sh -newer "$stamp" 2>/dev/null | head -n 1)" ]
}

# compile NAME CLASSPATH SOURCE_DIR [RESOURCE_DIR]: build/NAME.jar (jars, not folders, so that the JVM can map a
# class-data-sharing archive of them)
compile() {
  rm -rf "build/$1" && mkdir -p "build/$1"
  find "$3" -name '*.java' > "build/$1.sources"
  javac -nowarn --release 17 -encoding UTF-8 -d "build/$1" -cp "$2" @"build/$1.sources" &&
    jar cf "build/$1.jar" -C "build/$1" . ${4:+-C "$4" .}
}

gson=$(find_jar gson.jar 'gson-*.jar') || {
  echo "external engines: Gson's jar not found in $jars${jena_home_lib:+ or $jena_home_lib}, so the Java engines are" \
       "not built; install it: sudo apt-get install -y libgoogle-gson-java (or set JENA_HOME to a Jena distribution)" >&2
  exit 0
}
mkdir -p build
kit_cp="$here/build/kit.jar:$gson"
if ! up_to_date build/kit.classpath kit; then
  compile kit "$gson" kit || { echo "external engines: the Java kit did not compile" >&2; exit 1; }
  echo "$kit_cp" > build/kit.classpath
fi
if ! up_to_date build/scan-java.args kit scan; then
  compile scan "$kit_cp" scan || { echo "external engines: scan-java did not compile" >&2; exit 1; }
  echo "-cp $here/build/scan.jar:$kit_cp cgpm.scan.ScanMain" > build/scan-java.args
fi

# Jena 4 and what its in-memory ARQ loads (libapache-jena-java's dependencies; a distribution's lib/ has them all)
jena_jars=(jena-arq jena-core jena-base jena-iri guava commons-lang3 commons-io commons-codec commons-compress commons-csv
           commons-cli slf4j-api dexx.collection dexx-collections jackson-core jackson-databind jackson-annotations
           jsonld-java httpclient httpcore titanium-json-ld jakarta.json-api jakarta.json thrift libthrift protobuf
           protobuf-java)
optional=" dexx.collection dexx-collections thrift libthrift protobuf protobuf-java jakarta.json jakarta.json-api "
jena_cp=""
for name in "${jena_jars[@]}"; do
  if found=$(find_jar "$name.jar" "$name-[0-9]*.jar"); then
    jena_cp="$jena_cp:$found"
  elif [[ "$optional" != *" $name "* ]]; then
    echo "external engines: $name.jar not found in $jars${jena_home_lib:+ or $jena_home_lib}, so jena is not built;" \
         "install Jena: sudo apt-get install -y libapache-jena-java (or set JENA_HOME to a Jena 4 distribution)" >&2
    rm -f build/jena.args
    exit 0
  fi
done
# Debian's jena-core.jar (4.5.0-2) moved Jena's copy of Xerces to the package xerces.* but left its message bundles
# under org/apache/jena/ext/xerces: without them the first XSD datatype fails to initialise ("internal error").
# The bundles are copied to where the classes look for them.
core=$(find_jar jena-core.jar 'jena-core-[0-9]*.jar')
if ! up_to_date build/jena-resources.stamp "$core"; then
  rm -rf build/jena-resources && mkdir -p build/jena-resources
  listing=$(jar tf "$core")
  if grep -q '^xerces/impl/dv/SchemaDVFactory.class$' <<<"$listing" &&
     ! grep -q '^xerces/impl/msg/XMLSchemaMessages.properties$' <<<"$listing"; then
    (cd build/jena-resources && jar xf "$core" $(grep '^org/apache/jena/ext/xerces/.*\.properties$' <<<"$listing") &&
      mv org/apache/jena/ext/xerces xerces && rm -rf org)
  fi
  echo "$here" > build/jena-resources.stamp
fi
logger=$(find_jar slf4j-simple.jar 'slf4j-simple-[0-9]*.jar') && jena_cp="$jena_cp:$logger"
if ! up_to_date build/jena.args kit jena; then
  compile jena "$kit_cp$jena_cp" jena build/jena-resources || { echo "external engines: the Jena driver did not compile" >&2; exit 1; }
  # Jena's warnings go to stderr through slf4j-simple; not its info lines on every start, nor a warning for each
  # ill-typed literal a FILTER meets ("abc"^^xsd:integer is a term like any other here)
  run_jena="-Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.org.apache.jena.sparql.expr.NodeValue=error -cp $here/build/jena.jar:$kit_cp$jena_cp cgpm.jena.JenaMain"
  # A class-data-sharing archive of the classes one short run loads halves the JVM's start-up CPU (about 1.5 s to
  # 0.7 s on this project's machines): every test and bench cell starts a JVM. A stale or unusable archive is
  # ignored by the JVM (-Xshare:auto), and its log lines are kept off stderr.
  rm -f build/jena.jsa
  java -XX:ArchiveClassesAtExit="$here/build/jena.jsa" $run_jena incremental < training.jsonl > /dev/null 2>&1
  if [ -f build/jena.jsa ]; then
    cds="-XX:SharedArchiveFile=$here/build/jena.jsa -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off "
  fi
  echo "${cds:-}$run_jena" > build/jena.args
fi
