// SPDX-License-Identifier: Apache-2.0
'use strict';
// `npm install` step of the dxtext package: use the prebuilt addon of this
// platform (prebuilds/<platform>-<arch>/dxtext.node) when the package has
// one and it loads, else build build/dxtext.node from the bundled sources
// with CMake: the addon with the core (core/) compiled in and linked
// statically. No download. Needs cmake, a C and C++17 compiler, Eigen 3 and
// Node's C headers (Debian: cmake g++ libeigen3-dev libnode-dev).
//
// Environment: DXTEXT_BUILD_FROM_SOURCE=1 builds even when a prebuilt addon
// matches; DXTEXT_NODE_ADDON names an addon built elsewhere (nothing is
// built); NODE_INCLUDE_DIR the directory of node_api.h.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
if (process.env.DXTEXT_NODE_ADDON) {
  console.log(`dxtext: using ${process.env.DXTEXT_NODE_ADDON}`);
  process.exit(0);
}
const prebuilt = path.join(root, 'prebuilds', `${process.platform}-${process.arch}`, 'dxtext.node');
if (process.env.DXTEXT_BUILD_FROM_SOURCE !== '1' && fs.existsSync(prebuilt)) {
  try {
    require(prebuilt);
    console.log(`dxtext: prebuilt addon for ${process.platform}-${process.arch}`);
    process.exit(0);
  } catch (error) {
    console.log(`dxtext: the prebuilt addon does not load here (${error.message}); building from source`);
  }
}

const build = path.join(root, 'build');
const includeDir = [
  process.env.NODE_INCLUDE_DIR,
  path.join(path.dirname(process.execPath), '..', 'include', 'node'),
  '/usr/include/node',
]
  .filter(Boolean)
  .find((dir) => fs.existsSync(path.join(dir, 'node_api.h')));
const args = ['-S', root, '-B', build, '-DCMAKE_BUILD_TYPE=Release', '-DDXTEXT_BUILD_CORE=ON',
  '-DDXT_CRYPTO=portable', '-DDXT_RELOCATABLE=ON'];
if (includeDir) args.push(`-DNODE_INCLUDE_DIR=${includeDir}`);
const jobs = String(typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length || 2);
try {
  execFileSync('cmake', args, { stdio: 'inherit' });
  execFileSync('cmake', ['--build', build, '--target', 'dxtext_node', '-j', jobs], { stdio: 'inherit' });
} catch (error) {
  console.error(
    `dxtext: building the addon from source failed (${error.message}).\n` +
      "It needs cmake, a C and C++17 compiler, Eigen 3 and Node's C headers " +
      '(Debian: apt-get install cmake g++ libeigen3-dev libnode-dev).',
  );
  process.exit(1);
}
console.log(`dxtext: built ${path.join(build, 'dxtext.node')}`);
