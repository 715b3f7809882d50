/* SPDX-License-Identifier: Apache-2.0 */
/* The public C header, found on the include path that pkg-config's dxtext.pc
   gives (an installed dxtext), or in the headers of the XCFramework. */
#include <dxtext/dxtext.h>
