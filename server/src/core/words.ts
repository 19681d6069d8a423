/**
 * Word knowledge the extractors need: the large common-English vocabulary and the vocabulary
 * engineers share without a glossary (software terms, well-known acronyms, proper names), both
 * loaded by the host from dist/data/ and injected, so the core does no I/O; a short list of
 * function words; and the tests built on them (inflections included, see inflection.ts).
 */

import { FrontCodedWords } from './frontCodedWords';
import { derivesFrom } from './inflection';
import { singularize } from './normalize';
import { lowerBound, standalone } from './text';
import { indexHas } from './wordIndex';

export interface CommonWords {
  /** True for a lowercase word of ordinary English (as listed: no inflection analysis). */
  has(word: string): boolean;
  /**
   * True for a lowercase word of the shared vocabulary: general software terms, well-known
   * acronyms, names of people, places, companies and tools (as listed). Absent: none.
   */
  knows?(word: string): boolean;
  /** True when an English word at least `minLength` long starts with `prefix`. Absent: never. */
  startsWord?(prefix: string, minLength: number): boolean;
  /** A workspace's `ignore_words` (their forms), when the list is widened by them (engineState.ts). */
  ignored?: ReadonlySet<string>;
}

export function createCommonWords(words: Iterable<string>, known: Iterable<string> = []): CommonWords {
  const set = new Set<string>();
  for (const word of words) if (word) set.add(word.toLowerCase());
  const knownSet = new Set<string>();
  for (const word of known) if (word) knownSet.add(word.toLowerCase());
  const sorted = [...set].sort();
  return {
    has: (word) => set.has(word),
    knows: (word) => knownSet.has(word),
    startsWord(prefix, minLength) {
      for (let k = lowerBound(sorted, prefix); k < sorted.length && sorted[k]!.startsWith(prefix); k++) if (sorted[k]!.length >= minLength) return true;
      return false;
    },
  };
}
/** Parse a list of words, one per line (any case, any order); `known`, the shared vocabulary, likewise. */
export function parseCommonWords(text: string, known = ''): CommonWords {
  const lines = (t: string) => t.split('\n').map((w) => w.trim());
  return createCommonWords(lines(text), lines(known));
}

/**
 * The shipped lists, which the build writes as one lowercase word per line, sorted in code unit
 * order, ending with a line break: words are looked up by binary search in the text itself. That
 * takes ~1 ms to index instead of the ~40 ms a Set of 80,000 words takes to build at every
 * process start (most of the CLI's start-up). The build checks the order; a list that does not
 * end with a line break is parsed as any other. `apart`: words of each list the host read
 * separately (a word with a character beyond Latin-1 would make V8 keep a whole list as UTF-16,
 * twice its size: node/packageFiles.ts keeps such words out of the text). `frontCoded`: keep
 * the lists front-coded (frontCodedWords.ts).
 */
export function sortedCommonWords(text: string, known = '', apart: { common?: readonly string[]; known?: readonly string[] } = {}, options: { frontCoded?: boolean; indexes?: WordIndexes } = {}): CommonWords {
  const commonApart = apart.common ?? [];
  const knownApart = apart.known ?? [];
  if (!isSortedList(text) || (known !== '' && !isSortedList(known))) return createCommonWords([...text.split('\n'), ...commonApart].map((w) => w.trim()), [...known.split('\n'), ...knownApart].map((w) => w.trim()));
  // (Front-coded for a long-lived process: half the memory, ~50 ms to code once. frontCodedWords.ts.
  // Else hashed when the build indexed the list: wordIndex.ts.)
  const list = (words: string, index: Int32Array | undefined) => (options.frontCoded ? FrontCodedWords.of(words) : undefined) ?? (index ? new IndexedWordList(words, index) : new SortedWordList(words));
  return searchedCommonWords(list(text, options.indexes?.common), known === '' ? undefined : list(known, options.indexes?.known), commonApart, knownApart);
}

/** The hash indexes of the two lists (`indexWords` of each text), where the host has them. */
export interface WordIndexes {
  common?: Int32Array | undefined;
  known?: Int32Array | undefined;
}

/** The shipped lists as the build coded them (`FrontCodedWords.parts`), with the words each keeps apart (see `sortedCommonWords`). */
export function frontCodedCommonWords(common: FrontCodedWords, known: FrontCodedWords | undefined, apart: { common?: readonly string[]; known?: readonly string[] } = {}): CommonWords {
  return searchedCommonWords(common, known, apart.common ?? [], apart.known ?? []);
}

function searchedCommonWords(englishList: WordSearch, sharedList: WordSearch | undefined, commonApart: readonly string[], knownApart: readonly string[]): CommonWords {
  const english = remembered(englishList);
  const shared = sharedList && remembered(sharedList);
  // Words the host kept out of the lists (see `apart` above): a few, in sets.
  const englishApart = new Set(commonApart);
  const sharedApart = new Set(knownApart);
  return {
    has: (word) => english.find(word) || (englishApart.size > 0 && englishApart.has(word)),
    knows: (word) => (shared?.find(word) ?? false) || (sharedApart.size > 0 && sharedApart.has(word)),
    startsWord: (prefix, minLength) => english.startsWord(prefix, minLength) || (englishApart.size > 0 && [...englishApart].some((w) => w.length >= minLength && w.startsWith(prefix))),
  };
}

function isSortedList(text: string): boolean {
  return text.length > 0 && text.charCodeAt(text.length - 1) === 10;
}

/** A sorted word list searched in place: plain (below) or front-coded (frontCodedWords.ts). */
interface WordSearch {
  find(word: string): boolean;
  startsWord(prefix: string, minLength: number): boolean;
}

/**
 * Answers kept, at most this many (emptied when full). Most words are asked about once per
 * lexicon, which keeps each word's answer itself (`Lexicon.flags`): with 200 specs open in a
 * 400-spec workspace the language server asked 12,781 times for 9,307 distinct words, and an
 * unbounded memo held ~0.7 MB for ~3,500 searches saved (~5 ms in all; SPEC §10: ≤ 80 MB).
 */
const MAX_ANSWERS = 2_048;

/** A list whose searches are worth remembering (a binary search); a hashed one as it is. */
function remembered(list: WordSearch): WordSearch {
  return list instanceof IndexedWordList ? list : new RememberedAnswers(list);
}

/**
 * A word list's recent answers, kept: a search costs ~1–2 µs and a word being typed is asked
 * about again and again.
 */
class RememberedAnswers implements WordSearch {
  private readonly answers = new Map<string, boolean>();

  constructor(private readonly list: WordSearch) {}

  find(word: string): boolean {
    let answer = this.answers.get(word);
    if (answer === undefined) {
      if (this.answers.size >= MAX_ANSWERS) this.answers.clear();
      answer = this.list.find(word);
      // (A string of its own: a word sliced from a document would keep the document alive.)
      this.answers.set(standalone(word), answer);
    }
    return answer;
  }

  startsWord(prefix: string, minLength: number): boolean {
    return this.list.startsWord(prefix, minLength);
  }
}

/**
 * A sorted word list with its hash index (wordIndex.ts): a word is found by its hash; a prefix
 * (`startsWord`, asked of a few hundred words a run) by the binary search, which needs the order.
 */
class IndexedWordList implements WordSearch {
  private readonly sorted: SortedWordList;

  constructor(
    private readonly text: string,
    private readonly index: Int32Array,
  ) {
    this.sorted = new SortedWordList(text);
  }

  find(word: string): boolean {
    return indexHas(this.text, this.index, word);
  }

  startsWord(prefix: string, minLength: number): boolean {
    return this.sorted.startsWord(prefix, minLength);
  }
}

/**
 * A sorted list of words, one per line, searched in place (see `sortedCommonWords`): the binary
 * search halves ranges of the text and steps back to the start of the line it lands in, so no
 * table of where each word starts is kept (it was 0.9 MB of the language server's memory for the
 * two lists, SPEC §10).
 */
class SortedWordList implements WordSearch {
  constructor(private readonly text: string) {}

  find(word: string): boolean {
    const from = this.lowerBound(word);
    return from < this.text.length && compareWithLine(word, this.text, from, this.lineEnd(from)) === 0;
  }

  startsWord(prefix: string, minLength: number): boolean {
    for (let from = this.lowerBound(prefix); from < this.text.length; ) {
      const to = this.lineEnd(from);
      if (!this.text.startsWith(prefix, from) || from + prefix.length > to) return false;
      if (to - from >= minLength) return true;
      from = to + 1;
    }
    return false;
  }

  /** Where the first line not ordered before `word` starts (the text's length: none). */
  private lowerBound(word: string): number {
    // low: a line start, every line before it ordered before `word`; high: a line start (or the
    // end), no line from it on ordered before `word`.
    let low = 0;
    let high = this.text.length;
    while (low < high) {
      const half = (low + high) >>> 1;
      // The start of the line holding `half`: at least `low`, below `high`.
      const mid = half === 0 ? 0 : this.text.lastIndexOf('\n', half - 1) + 1;
      const end = this.lineEnd(mid);
      if (compareWithLine(word, this.text, mid, end) > 0) low = end + 1;
      else high = mid;
    }
    return low;
  }

  /** Where the line starting at `from` ends (its line break; the text's end without one). */
  private lineEnd(from: number): number {
    const end = this.text.indexOf('\n', from);
    return end === -1 ? this.text.length : end;
  }
}

/** `word` compared with text[from, to) in code unit order: negative, 0 or positive. */
function compareWithLine(word: string, text: string, from: number, to: number): number {
  const length = to - from;
  const shared = Math.min(word.length, length);
  for (let i = 0; i < shared; i++) {
    const d = word.charCodeAt(i) - text.charCodeAt(from + i);
    if (d !== 0) return d;
  }
  return word.length - length;
}

/**
 * True when a word (any case) is ordinary English or a function word: listed, or a plural,
 * inflection, derivation or British spelling of a listed word (inflection.ts).
 */
export function isCommonWord(common: CommonWords, word: string): boolean {
  const lower = word.toLowerCase();
  if (FUNCTION_WORDS.has(lower) || common.has(lower)) return true;
  const singular = singularize(lower);
  if (singular !== lower && common.has(singular)) return true;
  return derivesFrom(lower, (w) => common.has(w));
}

/**
 * True when a word (any case) belongs to the shared vocabulary (software terms, well-known
 * acronyms, names), listed or as a regular form of a listed word ("symlinked", "repos").
 */
export function isKnownWord(common: CommonWords, word: string): boolean {
  const knows = common.knows;
  if (!knows) return false;
  const lower = word.toLowerCase();
  if (knows(lower)) return true;
  const singular = singularize(lower);
  if (singular !== lower && knows(singular)) return true;
  return derivesFrom(lower, (w) => knows(w) || common.has(w));
}

const CLIPPING = /^[a-z]{4,7}$/;
const VOWEL = /[aeiou]/;

/**
 * True when a word (any case) is a clipping: not English itself, 4–7 letters with a vowel, and
 * the start of a longer English word ("coord" of coordinate, "param" of parameter, "compat").
 * Teams clip their own words too, so a clipping is weak evidence either way: it is reported at
 * the lowest severity rather than silenced (docs/configuration.md).
 */
export function isClipping(common: CommonWords, word: string): boolean {
  const lower = word.toLowerCase();
  if (!CLIPPING.test(lower) || !VOWEL.test(lower) || !common.startsWord) return false;
  return !isCommonWord(common, lower) && common.startsWord(lower, lower.length + 2);
}

/**
 * True when a word needs no glossary entry: ordinary English, or shared vocabulary that is not a
 * clipping (a clipping may be the team's own shorthand).
 */
export function isFamiliarWord(common: CommonWords, word: string): boolean {
  return isCommonWord(common, word) || (isKnownWord(common, word) && !isClipping(common, word));
}

/**
 * Function words: used to decide whether a quoted phrase is "made only of common words" (a quoted
 * "workspace" is a term; a quoted "the end" is not) and to pick definition keywords.
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are as at be because been before being
  below between both but by can cannot could did do does doing done down during each either else etc
  ever every few for from further get gets got had has have having he her here hers herself him
  himself his how however i if in into is it its itself just least less let like many may me might
  more most much must my myself neither no nor not now of off often on once one only or other ought
  our ours ourselves out over own per rather same shall she should since so some still such than
  that the their theirs them themselves then there these they this those though through thus to too
  under until up upon us very via was we were what whatever when where whether which while who whom
  whose why will with within without would yet you your yours yourself yourselves e.g i.e vs`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Acronyms and technical words so widespread in specs that they need no glossary entry
 * (SPEC §11: flag jargon, not the vocabulary every engineer shares). Lowercase, normalized.
 */
export const WELL_KNOWN_TERMS: ReadonlySet<string> = new Set(
  `api apis cli gui ui ux url uri urn http https html css json jsonl yaml yml toml xml csv tsv sql
  ssh ssl tls tcp udp ip dns cdn vpn lan wan os cpu gpu ram rom ssd hdd io usb pdf png svg gif jpeg
  id ids uuid guid utc iso ascii utf unicode regex sdk ide ci cd pr prs mr vcs git svn npm pip cpu
  aws gcp ai ml llm llms nlp faq tbd todo tba n/a ok eta kpi roi sla slo sli mvp poc qa uat saas paas
  iaas crud rest grpc rpc orm jwt oauth sso saml ldap rbac acl mfa totp otp smtp imap ftp sftp env
  db dbms vm vms k8s dto enum bool int str utf8 eof eol crlf lf bom stdin stdout stderr pid tty
  pdt pst est gmt cet am pm usa eu uk us js ts py rb go md npmrc readme changelog
  config configs repo repos runtime runtimes backend backends frontend frontends middleware
  namespace namespaces workflow workflows codebase codebases webhook webhooks endpoint endpoints
  timestamp timestamps metadata dataset datasets filesystem subprocess subcommand subcommands
  plugin plugins hostname localhost username login logout signup checkbox dropdown tooltip
  frontmatter markdown github gitlab bitbucket javascript typescript python django nodejs node
  linux macos windows docker kubernetes postgres postgresql sqlite redis nginx vscode neovim vim emacs
  json-schema schema schemas serializer deserialize serialize serialization deserialization
  async await callback callbacks boolean booleans integer integers string strings refactor
  refactoring refactored lifecycle stateful stateless idempotent idempotency roundtrip
  unittest pytest vitest jest mypy ruff lint linter linting formatter cli's api's inline
  toolchain dev devs prod staging upstream downstream rollout rollback hotfix changeset
  adr adrs ast dag fsm tui gui repl dsl bnf ebnf lsp dap jit aot gc oom oop mvc mvvm spa ssr csr ssg
  tdd bdd atdd ddd dry yagni ssot spof cqrs srp ocp isp dip sdlc sdd prd rfc rfcs rfp okr okrs mcp rag
  dfs bfs lru mru lfu fifo lifo ttl rtt qps rps tps mttr mtbf rpo rto etl olap oltp acid
  cwd wsl posix ulid cve cves cwe cvss sbom slsa owasp nist soc pii gdpr hipaa iam abac oidc pkce
  mtls hmac sha aes rsa gpg pgp xss csrf cors csp hsts ddos redos rce sqli wasm jre jdk jvm clr sloc loc
  kb mb gb tb ms ns tl tldr fyi asap eod wip lgtm ptal bluf iff ceo cto cfo coo vp pm em hr
  erp crm cms icp jql bsd gpl lgpl scm cron glob`
    .split(/\s+/)
    .filter(Boolean),
);
