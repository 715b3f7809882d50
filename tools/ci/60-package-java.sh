#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The jar of tools/package.sh (natives and the default model inside), used as
# an application would: a fresh project outside the source tree compiles a
# program against the jar alone and runs it with no dxtext.jni.path, no
# LD_LIBRARY_PATH and no DXTEXT_MODEL; it privatises a sentence with the
# bundled default model. Then the binding's JUnit tests run against the
# same jar (Debian's junit4), and the documented example.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/package/common.sh
dxt_need_packages default-jdk-headless junit4

bash tools/package.sh java
jar=$(ls "$PWD"/dist/java/dxtext-*.jar)
echo "jar: $(stat -c %s "$jar") bytes"
unzip -l "$jar" | grep -E 'native/|models/' 

app=$(mktemp -d "${TMPDIR:-/tmp}/dxtext-java-app.XXXXXX")
trap 'rm -rf "$app"' EXIT
cp "$jar" "$app/"
mkdir -p "$app/src"
cat >"$app/src/App.java" <<'JAVA'
import org.dxtext.DxModel;
import org.dxtext.DxOptions;
import org.dxtext.DxPrivatizer;
import org.dxtext.DxText;

public class App {
  public static void main(String[] args) {
    try (DxModel model = DxModel.openDefault(); DxPrivatizer privatizer = new DxPrivatizer(model)) {
      DxText result = privatizer.privatizeTextWithLocalDiagnostics(args[0], DxOptions.epsilon(20));
      System.out.println(result.getText());
      System.out.println(result.getRecord().toJson());
      System.out.println(result.getLocalDiagnostics().toJson());
      if (result.getLocalDiagnostics().getWordsPrivatized() != 9 || !result.getRecord().isPrivate()) {
        throw new AssertionError("unexpected record");
      }
    }
  }
}
JAVA
(
  cd "$app"
  unset DXTEXT_MODEL LD_LIBRARY_PATH
  javac -d classes -cp "$(basename "$jar")" src/App.java
  java -cp "$(basename "$jar"):classes" App "The president spoke to the nation about the war."
)

# The binding's tests and the example, against the packaged jar.
tests=build-ci/java-tests
rm -rf "$tests"
mkdir -p "$tests"
hamcrest=/usr/share/java/hamcrest-core.jar
[ -f "$hamcrest" ] || hamcrest=/usr/share/java/hamcrest.jar
cp="$jar:/usr/share/java/junit4.jar:$hamcrest"
javac --release 11 -d "$tests" -cp "$cp" bindings/java/src/test/java/org/dxtext/*.java bindings/java/examples/Privatize.java
DXTEXT_MODEL=$PWD/$(dxt_default_model) java -Ddxtext.source.root="$PWD" -cp "$cp:$tests" org.junit.runner.JUnitCore org.dxtext.DxTextTest org.dxtext.ConformanceTest
java -cp "$jar:$tests" Privatize "The president spoke to the nation about the war."
echo "java package: ok"
