'use strict';
// Builds build/dxtext.node with CMake against Node's own C headers (found
// next to the running node, or in /usr/include/node) and libdxtext. No
// download. Skipped when DXTEXT_NODE_ADDON names an addon built elsewhere.
//
// Environment: DXTEXT_LIB_DIR (directory of libdxtext; default: the source
// tree's build/lib, else an installed dxtext CMake package), NODE_INCLUDE_DIR.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

if (process.env.DXTEXT_NODE_ADDON) {
  console.log(`dxtext: using ${process.env.DXTEXT_NODE_ADDON}`);
  process.exit(0);
}
const root = path.join(__dirname, '..');
const build = path.join(root, 'build');
const candidates = [
  process.env.NODE_INCLUDE_DIR,
  path.join(path.dirname(process.execPath), '..', 'include', 'node'),
  '/usr/include/node',
].filter(Boolean);
const includeDir = candidates.find((dir) => fs.existsSync(path.join(dir, 'node_api.h')));
const args = ['-S', root, '-B', build, '-DCMAKE_BUILD_TYPE=Release'];
if (includeDir) args.push(`-DNODE_INCLUDE_DIR=${includeDir}`);
if (process.env.DXTEXT_LIB_DIR) args.push(`-DDXTEXT_LIB_DIR=${process.env.DXTEXT_LIB_DIR}`);
execFileSync('cmake', args, { stdio: 'inherit' });
execFileSync('cmake', ['--build', build, '-j2'], { stdio: 'inherit' });
console.log(`dxtext: built ${path.join(build, 'dxtext.node')}`);
