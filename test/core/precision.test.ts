/**
 * Issue 15: what a writer acts on is reported, the noise classes judged on real specs are not (or
 * not at Warning). Every example is made up for the test; the classes are those of the judged
 * findings (inflections and British spellings, software vocabulary, names, identifiers,
 * abbreviations and fragments, quoted messages and titles, well-known acronyms, ordinary
 * synonyms to avoid, contradictions that are none).
 */
import { describe, expect, test } from 'vitest';
import type { GlossaryIndex } from '../../server/src/core/glossary';
import { check, glossaryFrom } from '../helpers/core';

const glossary = glossaryFrom({
  spec_kitty_core: `terms:
  - {surface: work package, definition: A unit of planned work inside a mission, status: active}
  - {surface: mission, definition: A unit of spec-driven work with its own spec plan and tasks, status: active}
  - surface: enhances
    definition: Declarative field on a doctrine pack artifact that merges it into a built-in artifact with the same id
    status: active
    synonyms_to_avoid: [extends, augments]
  - surface: status commit
    definition: An automatic commit that records a lane transition of a work package
    status: active
    synonyms_to_avoid: [ceremony, ceremony commit]
`,
  team_domain: `terms:
  - {surface: lane, definition: A column of the kanban board, status: active}
  - {surface: lane, definition: A git branch of one work package, status: active}
`,
});

const findings = (text: string) => check(text, { glossary }).findings;
const terms = (text: string) => [...new Set(findings(text).map((f) => f.term))];
const atWarning = (text: string) => findings(text).filter((f) => f.severity !== 'low').map((f) => f.term);
const thrice = (sentence: string) => `${sentence} ${sentence} ${sentence}`;

describe('noise classes are not reported', () => {
  test('inflections and British spellings of ordinary words', () => {
    expect(terms(thrice('The retargeted artefact keeps its behavioural colour; nothing is unconfigured or unreviewed.'))).toEqual([]);
    expect(terms(thrice('Each activatable, queryable and routable step is normalised.'))).toEqual([]);
  });

  test('general software vocabulary', () => {
    expect(terms(thrice('The allowlist, the docstring, the backfill and the frozenset live in a venv.'))).toEqual([]);
  });

  test('names of people, products and tools: capitalised inside a sentence, never written in lowercase', () => {
    expect(terms(thrice('We asked Quarkov about it and Quarkov agreed.'))).toEqual([]);
    // Written in lowercase, the same word is vocabulary (and reported, at Information).
    expect(terms(thrice('The quarkov agreed.'))).toEqual(['quarkov']);
  });

  test('identifiers in prose: snake_case, camelCase, PascalCase of familiar words, calls, dotted names, paths', () => {
    expect(terms('The zorb_state field, the zorbRunner helper and the EventStore class. Call zorblax() on blorf.zorblax, see Zorgroup/zorblax-cli and blorf.zorblax again.')).toEqual([]);
  });

  test('a word the document itself writes as code', () => {
    expect(terms('Run `zorblax check` first. The zorblax output, the zorblax log and the zorblax exit code.')).toEqual([]);
  });

  test('hyphen fragments and prefixes', () => {
    expect(terms(thrice('The pre-#555 behaviour, a re-run and an ad-hoc fix.'))).toEqual([]);
  });

  test('quoted messages, sentences and titles', () => {
    expect(terms('Reply "is this live?" or "not shipped", "don\'t run the zorblax", "make the quarkle static", see "Get Blorfs Started" and "nice to have".')).toEqual([]);
  });

  test('quoted identifiers', () => {
    expect(terms('Set "for_zorblax", "003-zorb-panel" or "zorbContext".')).toEqual([]);
  });

  test('well-known acronyms, units and joined abbreviations', () => {
    expect(terms('See the ADR on the FSM; TDD and BDD apply. It takes 5 MB. TL;DR: CI/CD and R&D.')).toEqual([]);
  });

  test('an abbreviation the document spells out, before or after it, anywhere in the document', () => {
    const spelled = 'The Quark Zone Index (QZI) and the Human-in-Quorum (HiQ) decide.\n\nLater the QZI and the HiQ meet the QZIs.';
    expect(terms(spelled)).toEqual([]);
    // Still undefined in every glossary: counted for the glossary candidates.
    expect(check(spelled, { glossary }).spelledOut).toEqual([
      { surface: 'qzi', count: 3, line: 0 },
      { surface: 'hiq', count: 2, line: 0 },
    ]);
    expect(terms('The QZI (quark zone index) rules; the QZI again.')).toEqual([]);
    // Quoted too: not reported, and counted once for the candidates.
    const quoted = check('The "QZI" and the Quark Zone Index (QZI) rule.', { glossary });
    expect(quoted.findings).toEqual([]);
    expect(quoted.spelledOut).toEqual([{ surface: 'qzi', count: 2, line: 0 }]);
    // Excluded by the front matter: no candidate either.
    expect(check('---\nglossary_exclude_terms: [qzi]\n---\nThe Quark Zone Index (QZI) rules.', { glossary }).spelledOut).toEqual([]);
    expect(terms('A Single Source of Quarks (SSOQ), a Conflict-free Replicated Zorb Type (CRZT), a GitHub Quark (GHQ).')).toEqual([]);
  });

  test('an ordinary word listed as a synonym to avoid, used in its everyday sense', () => {
    expect(terms('This extends the deadline. The ceremony was short.')).toEqual([]);
  });

  test('sentences about one instance of a term do not contradict its definition', () => {
    expect(terms('This mission is the first increment. Each work package is a prompt file. Doctrine is the knowledge store.')).toEqual([]);
  });

  test('repetition alone never reaches Warning', () => {
    expect(atWarning(thrice('The zorblax and the quarkle meet the blorf.'))).toEqual([]);
  });
});

describe('useful findings are still reported', () => {
  test('an undefined coined word, repeated: unknown, at Information', () => {
    expect(findings(thrice('The quarkle runs.')).map((f) => [f.term, f.conflictType, f.extractionMethod, f.severity])[0]).toEqual(['quarkle', 'unknown', 'repeated_noun', 'low']);
  });

  test('a clipping of an English word (teams clip their own words), even one software dictionaries list', () => {
    expect(terms(thrice('The coord path routes the lane.'))).toContain('coord');
  });

  test('an abbreviation after words that do not spell it, or with something else in its parentheses', () => {
    expect(terms('The synthesized quark graph (QZX) runs.')).toEqual(['qzx']);
    expect(terms('The QZX (final decision) and the HiQ (Ada Lovelace) run.').sort()).toEqual(['hiq', 'qzx']);
    expect(terms('The QZI (quark, zone, index) runs; so does `Quark Zone Index` (QZI).').sort()).toEqual(['qzi']);
  });

  test('an unknown acronym, a PascalCase word with a coined part, a mixed-case abbreviation, a quoted coined phrase', () => {
    expect(terms('The QZX merge rules, the ZorblaxStore, the HiQ decision and the "quarkle gate".').sort()).toEqual(['hiq', 'quarkle gate', 'qzx', 'zorblaxstore']);
  });

  test('an ambiguous term: at Warning', () => {
    expect(atWarning('Move it to the next lane.')).toEqual(['lane']);
  });

  test('an ordinary synonym to avoid used in the glossary sense', () => {
    const found = findings('The doctrine pack extends the built-in artifact with the same id.');
    expect(found.map((f) => [f.term, f.conflictType, f.reason, f.replacement])).toEqual([['extend', 'inconsistent', 'synonym_to_avoid', 'enhances']]);
  });

  test('an uncommon synonym to avoid, wherever it is used', () => {
    expect(terms('Then the ceremony commit runs.')).toEqual(['ceremony commit']);
  });

  test('a sentence that redefines the term itself', () => {
    const found = findings('A mission is a kind of tropical fruit.');
    expect(found.map((f) => [f.term, f.conflictType, f.reason])).toEqual([['mission', 'inconsistent', 'contradiction']]);
  });
});

describe('plurals normalization does not give (SPEC §4 keeps -os, -as, -is, -us words as they are; irregular ones) end their surfaces', () => {
  const twoSenses = (...surfaces: string[]) => glossaryFrom({ team_domain: `terms:\n${surfaces.map((surface) => `  - {surface: ${surface}, definition: The first ${surface}, status: active}\n  - {surface: ${surface}, definition: The second ${surface}, status: active}\n`).join('')}` });
  const ambiguous = (text: string, glossary: GlossaryIndex) => check(text, { glossary }).findings.filter((f) => f.conflictType === 'ambiguous').map((f) => f.term);

  test('"acceptance scenarios", "schemas", "menus", "canvases" and "aliases" are uses of their surfaces, and "acceptance criteria" of acceptance criterion', () => {
    const glossary = twoSenses('acceptance scenario', 'schema', 'menu', 'reasons canvas', 'alias', 'acceptance criterion', 'index');
    expect(ambiguous('Two acceptance scenarios, the schemas and the menus.', glossary)).toEqual(['acceptance scenario', 'schema', 'menu']);
    expect(ambiguous('Backfilling REASONS canvases and their aliases.', glossary)).toEqual(['reasons canvas', 'alias']);
    expect(ambiguous('Its acceptance criteria and the indices.', glossary)).toEqual(['acceptance criterion', 'index']);
  });

  test('plurals of words with letters beyond a–z end their surfaces ("Cafés", "Señoras", "Zorbés"), though normalization keeps them as written, as Spec Kitty does', () => {
    const glossary = twoSenses('café', 'señora', 'data zorbé');
    expect(ambiguous('The Cafés open; Señoras come; the data zorbés run. Two café and a señora.', glossary)).toEqual(['café', 'señora', 'data zorbé', 'café', 'señora']);
    // The rules are SPEC §4's: a word of three letters stays ("Ñus"), -os after a stem of four is a plural as in "scenarios".
    expect(ambiguous('The Ñus and the jalapeños.', twoSenses('ñu', 'jalapeño'))).toEqual(['jalapeño']);
  });

  test('words of their own stay so: a stem under four letters ("bias", "plus", "BIOS"), a verb ("analyses"), everyday English ("people")', () => {
    const glossary = twoSenses('bia', 'plu', 'bio', 'analysis', 'person');
    expect(ambiguous('Two plus two, a bias in the sample, update the BIOS; the checker analyses each spec for people.', glossary)).toEqual([]);
    // The capitals-plus-s plural of an acronym still counts (SPEC §5: APIs → api).
    expect(ambiguous('The BIAs and the PLUs.', glossary)).toEqual(['bia', 'plu']);
  });
});

describe('combining marks are part of their word', () => {
  test('a decomposed accent ends no word: "zorbdó" written with U+0301 is not a use of zorbdo, as the composed one is not', () => {
    const glossary = glossaryFrom({ team_domain: 'terms:\n  - {surface: zorbdo, definition: One, status: active}\n  - {surface: zorbdo, definition: Two, status: active}\n' });
    const terms = (text: string) => check(text, { glossary }).findings.filter((f) => f.conflictType === 'ambiguous').map((f) => [f.term, f.range.start.character, f.range.end.character]);
    expect(terms('The zorbd\u00f3 and the zorbdo\u0301 run; the zorbdo too.')).toEqual([['zorbdo', 36, 42]]);
  });

  test('a decomposed surface and its plural, as a composed one', () => {
    const decomposed = glossaryFrom({ team_domain: 'terms:\n  - {surface: "cafe\u0301", definition: One, status: active}\n  - {surface: "cafe\u0301", definition: Two, status: active}\n' });
    expect(check('The Cafe\u0301s and a cafe\u0301.', { glossary: decomposed }).findings.filter((f) => f.conflictType === 'ambiguous')).toHaveLength(2);
  });
});

describe('the multiplication and division signs join no words', () => {
  test('"coord×lanes" and "lanes÷2" are uses of lane; a surface written with the sign matches as two words', () => {
    expect(findings('The 2×2 coord×lanes grid, split as lanes÷2.').filter((f) => f.term === 'lane')).toHaveLength(2);
    const signed = glossaryFrom({ team_domain: 'terms:\n  - {surface: quarkle×zorb, definition: A made-up product, status: active}\n  - {surface: quarkle×zorb, definition: A made-up ratio, status: active}\n' });
    expect(check('Every quarkle×zorb counts.', { glossary: signed }).findings.map((f) => [f.term, f.conflictType])).toEqual([['quarkle×zorb', 'ambiguous']]);
  });
});

describe('multi-word terms across a line break in a block quote', () => {
  test('"> the work⏎> package" is a use of work package; a quote that starts on the next line, or deeper, is another block', () => {
    const uses = (text: string) => check(text, { glossary }).candidates.find((c) => c.surface === 'work package')?.texts ?? [];
    expect(uses('> the work\n> package here\n\n> > a work\n> > package\n\n> lazy work\npackage\n')).toEqual(['work\n> package', 'work\n> > package', 'work\npackage']);
    expect(uses('The work\n> package starts a quote.\n')).toEqual([]);
    expect(uses('> one work\n> > package deeper\n')).toEqual([]);
  });

  test('"work\\⏎package" (a hard line break, CommonMark) is a use of work package; an escaped backslash is text between the words', () => {
    const uses = (text: string) => check(text, { glossary }).candidates.find((c) => c.surface === 'work package')?.texts ?? [];
    expect(uses('The work\\\npackage here; a work \\\r\npackage there.\n\n> a work\\\n> package\n')).toEqual(['work\\\npackage', 'work \\\r\npackage', 'work\\\n> package']);
    expect(uses('A work\\\\\npackage, a work\\ package, a work\\\n\npackage.\n')).toEqual([]);
  });
});

describe('multi-word terms with a no-break space between their words', () => {
  test('"work\u00a0package" (and a narrow no-break space) is a use of work package, as markdown-it renders it', () => {
    const uses = (text: string) => check(text, { glossary }).candidates.find((c) => c.surface === 'work package')?.texts ?? [];
    expect(uses('The work\u00a0package, a work\u202fpackage and a work \u00a0 package.\n')).toEqual(['work\u00a0package', 'work\u202fpackage', 'work \u00a0 package']);
    expect(uses('A work\u00a0\u00a0\npackage\u2060here and a work\u200bpackage.\n')).toEqual(['work\u00a0\u00a0\npackage']);
  });
});

describe('hyphen-joined forms of multi-word terms (SPEC §5)', () => {
  test('"work-package" is an occurrence of work package, plural and across the glossary walk', () => {
    const report = check('A work-package, two work-packages and one work package; the work-package-level view.', { glossary });
    expect(report.candidates.find((c) => c.surface === 'work package')!.texts).toEqual(['work-package', 'work-packages', 'work package', 'work-package']);
  });

  test('a hyphen-joined form of a located (non-glossary) phrase matches too', () => {
    const report = check('The "quarkle gate" and a quarkle-gate.');
    expect(report.candidates.find((c) => c.surface === 'quarkle gate')!.texts).toEqual(['quarkle gate', 'quarkle-gate']);
  });
});

describe('command lines written in prose', () => {
  test('the value of an option is code', () => {
    expect(terms(thrice('Run the tool with --ai quarkle or --mode=quarkle first.'))).toEqual([]);
  });
});

describe('rare words (for the glossary candidates)', () => {
  test('a word needing a glossary used once or twice is listed with its first line, not reported', () => {
    const report = check('# Title\n\nThe quibbix is here.\nAsk Stefo, and run `blip`; the blip and the quibbix, the coord and the docstring.\n', { glossary });
    expect(report.findings).toEqual([]);
    expect(report.rareWords).toEqual([{ surface: 'quibbix', count: 2, lower: 2, capital: 0, line: 2 }]);
  });
});
