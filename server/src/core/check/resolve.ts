/**
 * Resolution of one term against the scope stack (SPEC §6): pins first, then the first scope that
 * holds a non-deprecated sense decides; two or more `active` senses there make it ambiguous.
 */

import type { GlossaryIndex } from '../glossary';
import { normalizeSurface } from '../normalize';
import { toSenseRef, type Pin, type ScopeId, type Sense, type SenseRef } from '../types';
import { WELL_KNOWN_TERMS } from '../words';

export type Resolution =
  | { kind: 'resolved'; scope: ScopeId; sense: SenseRef; pinned: boolean; senseCount: number }
  | { kind: 'known' }
  | { kind: 'ambiguous'; scope: ScopeId; candidates: SenseRef[]; senseCount: number }
  | { kind: 'synonym_to_avoid'; scope: ScopeId; replacement: string; candidates: SenseRef[]; senseCount: number }
  | { kind: 'deprecated_only'; scope: ScopeId; candidates: SenseRef[]; senseCount: number; seeAlso: string[]; instead: string[] }
  | { kind: 'unknown' };

/**
 * `isOrdinary` tells whether an unknown surface is ordinary English: such a word is never
 * reported as unknown (a quoted "mission" without any glossary is just a word).
 */
export function resolveTerm(
  surface: string,
  glossary: GlossaryIndex,
  pins: ReadonlyMap<string, Pin>,
  knownTerms: ReadonlySet<string> = WELL_KNOWN_TERMS,
  isOrdinary: (surface: string) => boolean = () => false,
): Resolution {
  const pin = pins.get(surface);
  const senses = glossary.sensesOf(surface);
  // (A pinned sense the glossary deprecated since holds no more: deprecated senses never resolve,
  // SPEC §6. The term is then resolved as if undecided, and says so.)
  if (pin && !deprecatedSince(pin, senses)) return { kind: 'resolved', scope: pin.sense.scope, sense: pin.sense, pinned: true, senseCount: senses.length };

  const live = senses.filter((s) => s.status !== 'deprecated');
  // A word the mission's own vocabulary says to avoid is avoided in its documents, whatever a
  // team or core sense of the word says (the mission's scope is consulted first).
  const missionBan = live.length > 0 && live[0]!.scope !== 'mission_local' ? glossary.preferredFor(surface).find((s) => s.origin.kind === 'spec') : undefined;
  if (missionBan) return { kind: 'synonym_to_avoid', scope: missionBan.scope, replacement: missionBan.surface, candidates: rankSenses([missionBan]), senseCount: 1 };
  if (live.length > 0) {
    const scope = live[0]!.scope;
    // A mission's own vocabulary (its spec's Domain Language, SPEC §3) comes ahead of the
    // mission_local seed file and holds one sense per surface: it decides alone.
    if (live[0]!.origin.kind === 'spec') return { kind: 'resolved', scope, sense: toSenseRef(live[0]!), pinned: false, senseCount: 1 };
    const inScope = live.filter((s) => s.scope === scope);
    const active = inScope.filter((s) => s.status === 'active');
    if (active.length >= 2) return { kind: 'ambiguous', scope, candidates: rankSenses(inScope), senseCount: inScope.length };
    return { kind: 'resolved', scope, sense: toSenseRef(active[0] ?? inScope[0]!), pinned: false, senseCount: inScope.length };
  }

  const preferred = glossary.preferredFor(surface);
  if (preferred.length > 0) {
    const target = preferred[0]!;
    const targetSenses = target.origin.kind === 'spec' ? [target] : glossary.sensesOf(target.surface).filter((s) => s.status !== 'deprecated' && s.scope === target.scope);
    return { kind: 'synonym_to_avoid', scope: target.scope, replacement: target.surface, candidates: rankSenses(targetSenses.length ? targetSenses : [target]), senseCount: targetSenses.length || 1 };
  }
  if (senses.length > 0) {
    const deciding = senses.filter((s) => s.scope === senses[0]!.scope);
    // What the deprecated entries point to, for the message and the Replace fix: the terms their
    // definitions name to write instead ("Replaced by `status commit`") that the glossary holds
    // alive, and their see_also ("see 'mission slug'").
    const instead = [...new Set(deciding.flatMap((s) => replacementsNamedIn(s.definition)))].filter((name) => name !== surface && glossary.sensesOf(name).some((s) => s.status !== 'deprecated'));
    const seeAlso = [...new Set(deciding.flatMap((s) => s.seeAlso))].filter((name) => !instead.includes(normalizeSurface(name)));
    return { kind: 'deprecated_only', scope: senses[0]!.scope, candidates: rankSenses(senses), senseCount: senses.length, seeAlso, instead };
  }
  if (knownTerms.has(surface) || isOrdinary(surface)) return { kind: 'known' };
  return { kind: 'unknown' };
}

/**
 * "Use 'repository root checkout' instead", "Replaced by `status commit`", "alias for 'X'": the
 * terms a deprecated entry's definition tells writers to use (quoted, normalized); not after a
 * negation ("do not use 'X'").
 */
export function replacementsNamedIn(definition: string): string[] {
  const out: string[] = [];
  const add = (quoted: string) => {
    const name = normalizeSurface(quoted);
    if (name !== '' && !out.includes(name)) out.push(name);
  };
  for (const match of definition.matchAll(NAMED_REPLACEMENT)) {
    if (NEGATED.test(definition.slice(Math.max(0, match.index - 12), match.index))) continue;
    add(match[1]!);
    // ("use 'X' or 'Y'", "replaced by 'X', 'Y' and 'Z'")
    ALSO_NAMED.lastIndex = match.index + match[0].length;
    for (let also; (also = ALSO_NAMED.exec(definition)) !== null; ) add(also[1]!);
  }
  return out;
}

const NAMED_REPLACEMENT = /\b(?:use|replaced\s+by|superseded\s+by|renamed\s+to|alias\s+(?:for|of)|prefer)\s+(?:the\s+)?[`'"\u2018\u201c]([^`'"\u2019\u201d\n]{1,60})[`'"\u2019\u201d]/gi;
const ALSO_NAMED = /\s*(?:,|\bor\b|\band\b|,\s*or\b|,\s*and\b)\s*(?:the\s+)?[`'"\u2018\u201c]([^`'"\u2019\u201d\n]{1,60})[`'"\u2019\u201d]/iy;
const NEGATED = /\b(?:not|never|n['\u2019]t)\s+$/i;

/** Whether the glossary holds the pin's sense only as deprecated now (a decided sense the team retired). */
function deprecatedSince(pin: Pin, senses: readonly Sense[]): boolean {
  const same = senses.filter((s) => s.scope === pin.sense.scope && s.definition === pin.sense.definition);
  return same.length > 0 && same.every((s) => s.status === 'deprecated');
}

/** Candidate order everywhere (CLI numbering, quick fixes): confidence descending, then file order. */
export function rankSenses(senses: readonly Sense[]): SenseRef[] {
  return senses
    .map((sense, index) => ({ sense, index }))
    .sort((a, b) => b.sense.confidence - a.sense.confidence || a.index - b.index)
    .map(({ sense }) => toSenseRef(sense));
}
