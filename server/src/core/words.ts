/**
 * Word knowledge the extractors need: the large common-English vocabulary (loaded by the host from
 * dist/data/common-words.txt and injected, so the core does no I/O), a short list of function
 * words, and well-known technical acronyms and words that count as known.
 */

import { singularize } from './normalize';
import { LineIndex } from './text';

export interface CommonWords {
  /** True for a lowercase word of ordinary English. */
  has(word: string): boolean;
}

export function createCommonWords(words: Iterable<string>): CommonWords {
  const set = new Set<string>();
  for (const word of words) if (word) set.add(word.toLowerCase());
  return { has: (word) => set.has(word) };
}

/** Parse a list of words, one per line (any case, any order). */
export function parseCommonWords(text: string): CommonWords {
  return createCommonWords(text.split('\n').map((w) => w.trim()));
}

/**
 * The shipped list, which the build writes as one lowercase word per line, sorted in code unit
 * order, ending with a line break: words are looked up by binary search in the text itself. That
 * takes ~1 ms to index instead of the ~40 ms a Set of its 80,000 words takes to build at every
 * process start (most of the CLI's start-up). The build checks the order; a list that does not
 * end with a line break is parsed as any other.
 */
export function sortedCommonWords(text: string): CommonWords {
  if (text.length === 0 || text.charCodeAt(text.length - 1) !== 10) return parseCommonWords(text);
  // starts[k]: where word k starts; starts[lines]: one past the last line break (the empty line
  // after it).
  const starts = new LineIndex(text).lineStarts();
  const lines = starts.length - 1;
  const search = (word: string): boolean => {
    let low = 0;
    let high = lines;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const order = compareWithLine(word, text, starts[mid]!, starts[mid + 1]! - 1);
      if (order === 0) return true;
      if (order > 0) low = mid + 1;
      else high = mid;
    }
    return false;
  };
  return { has: search };
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

/** True when a word (any case, maybe plural) is ordinary English or a function word. */
export function isCommonWord(common: CommonWords, word: string): boolean {
  const lower = word.toLowerCase();
  if (FUNCTION_WORDS.has(lower) || common.has(lower)) return true;
  const singular = singularize(lower);
  return singular !== lower && common.has(singular);
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
  toolchain dev devs prod staging upstream downstream rollout rollback hotfix changeset`
    .split(/\s+/)
    .filter(Boolean),
);
