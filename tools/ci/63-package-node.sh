#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The npm tarball of tools/package.sh, installed as a user would: into fresh
# directories outside the source tree, with nothing but the tarball (npm
# works offline: the package has no dependencies).
#  1. With the prebuilt addon: a program privatises a sentence with the
#     default model the package carries; the addon has no RUNPATH and needs
#     no libdxtext; the binding's tests and example run against the install.
#  2. DXTEXT_BUILD_FROM_SOURCE=1, as on a platform with no prebuilt addon:
#     `npm install` compiles the addon and the core from the bundled
#     sources, and the same program runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/package/common.sh
dxt_need_node
node --version

bash tools/package.sh node
tarball=$(ls "$PWD"/dist/node/dxtext-*.tgz)
echo "tarball: $(stat -c %s "$tarball") bytes"
work=$(mktemp -d "${TMPDIR:-/tmp}/dxtext-node.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat >"$work/app.js" <<'JS'
const dxtext = require('dxtext');
(async () => {
  const model = await dxtext.Model.openDefault();
  const privatizer = new dxtext.Privatizer(model);
  const { text, record, localDiagnostics } = await privatizer.privatizeText(
    'The president spoke to the nation about the war.', { epsilon: 20, localDiagnostics: true });
  console.log(text);
  console.log(record.json);
  console.log(localDiagnostics.json);
  if (localDiagnostics.wordsPrivatized !== 9 || !record.isPrivate) throw new Error('unexpected record');
  const readable = await privatizer.privatizeText('The president spoke to the nation.', { preset: 'readable' });
  // The preset's values are the table's (docs/options.md); the record names the preset and its epsilon.
  if (readable.record.preset !== 'readable' || !(readable.record.epsilon > 0)) throw new Error('unexpected preset record');
  await privatizer.close();
  model.close();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
JS
install_in() { # DIR [ENV...]: a fresh project with the tarball installed
  local dir=$1
  shift
  mkdir -p "$dir"
  echo '{ "name": "dxtext-app", "version": "1.0.0", "private": true }' >"$dir/package.json"
  (cd "$dir" && env "$@" npm install --offline --no-audit --no-fund --foreground-scripts "$tarball")
}

unset DXTEXT_NODE_ADDON DXTEXT_MODEL LD_LIBRARY_PATH
install_in "$work/prebuilt"
addon=$(ls "$work"/prebuilt/node_modules/dxtext/prebuilds/*/dxtext.node)
if readelf -d "$addon" | grep -qE 'RUNPATH|RPATH|libdxtext'; then
  echo "the prebuilt addon has a RUNPATH or needs libdxtext" >&2
  exit 1
fi
(cd "$work/prebuilt" && cp ../app.js . && node app.js)
package=$work/prebuilt/node_modules/dxtext
DXTEXT_NODE_PACKAGE=$package node --test bindings/node/test/
# The example as the docs show it, copied unchanged into the app (it must
# require the package by its name, as an app does: not '..').
(cd "$work/prebuilt" && cp "$OLDPWD/bindings/node/examples/privatize.js" example.js && node example.js)

install_in "$work/source" DXTEXT_BUILD_FROM_SOURCE=1
test -f "$work/source/node_modules/dxtext/build/dxtext.node"
(cd "$work/source" && cp ../app.js . && node app.js)
echo "node package: ok"
