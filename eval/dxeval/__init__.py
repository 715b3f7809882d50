# SPDX-License-Identifier: Apache-2.0
"""dxeval: measures what dxtext does to an authorship attacker and to a topic
classifier, over mechanisms, epsilons and seeds (see eval/README.md)."""
