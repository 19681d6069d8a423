/**
 * SPEC §7 "Reading": every line Spec Kitty's code writes is valid and replays like ours — its
 * pipeline in defer, select and custom modes, its CLI `glossary resolve`, its checkpoints and
 * blocks — alone and interleaved with our lines (file order for lines without a clock).
 */
import { describe, expect, it } from 'vitest';
import { parseEventLog } from '../../server/src/core/events/parseLog';
import { serializeEvent } from '../../server/src/core/events/serialize';
import { sniffEventType } from '../../server/src/core/events/sniff';
import { STATE_EVENT_TYPES, type LoggedEvent } from '../../server/src/core/events/types';
import { replayEvents, replayToJson, type PositionedEvent } from '../../server/src/core/replay';
import { requested, resolved, senseUpdated, observed } from '../fixtures/events/factory';
import {
  skBlocked,
  skCheck,
  skCheckpoint,
  skId,
  skLine,
  skObserved,
  skRequested,
  skResolvedByCli,
  skResolvedByPipeline,
  skScopeActivated,
  skSenseByCli,
  skSenseByPipeline,
  skTime,
} from '../fixtures/events/specKitty';

const M = '01JQ4A2M9P7S3G5H8K1N6RZTWV';
const LOG = `/ws/.kittify/events/glossary/${M}.events.jsonl`;
const WORKTREE = { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree directory', confidence: 0.9 };
const VSCODE = { surface: 'workspace', scope: 'team_domain', definition: 'VS Code workspace file', confidence: 0.7 };

/** A log of Spec Kitty's pipeline run three times (defer, select, custom), then its CLI twice. */
function specKittyLog(): string[] {
  const ambiguous = { term: 'workspace', type: 'ambiguous' as const, severity: 'high' as const, candidates: [WORKTREE, VSCODE] };
  const unknown = (term: string) => ({ term, type: 'unknown' as const, severity: 'medium' as const });
  return [
    // defer (non-interactive): every conflict requested, the gate checkpoints and blocks
    skScopeActivated({ mission: M, run: 'sk-defer', scope: 'team_domain', id: 1, t: skTime(1) }),
    skObserved({ mission: M, run: 'sk-defer', term: 'delivery', id: 2, t: skTime(1, 10) }),
    skCheck({ mission: M, run: 'sk-defer', id: 3, t: skTime(1, 20), findings: [ambiguous, unknown('delivery'), unknown('order')] }),
    skRequested({ mission: M, run: 'sk-defer', id: 4, t: skTime(1, 30), conflict: 'c-ws-1', term: 'workspace', options: [WORKTREE.definition, VSCODE.definition], urgency: 'high', checkId: 3 }),
    skRequested({ mission: M, run: 'sk-defer', id: 5, t: skTime(1, 40), conflict: 'c-delivery', term: 'delivery', checkId: 3 }),
    skRequested({ mission: M, run: 'sk-defer', id: 6, t: skTime(1, 50), conflict: 'c-order', term: 'order', options: ['The purchase a shopper made'] }),
    skCheckpoint({ mission: M, run: 'sk-defer', id: 7, t: skTime(1, 60), token: '2b87431d-55b4-495d-8da0-991b97558004' }),
    skBlocked({ mission: M, run: 'sk-defer', id: 8, t: skTime(1, 70), findings: [ambiguous] }),
    // select: the request first, then the chosen candidate
    skRequested({ mission: M, run: 'sk-select', id: 9, t: skTime(2), conflict: 'c-ws-2', term: 'workspace', options: [WORKTREE.definition, VSCODE.definition], urgency: 'high' }),
    skResolvedByPipeline({ id: 10, t: skTime(2, 10), conflict: 'c-ws-2', term: 'workspace', sense: VSCODE }),
    // custom: the request, then a team_domain sense and no Resolved
    skRequested({ mission: M, run: 'sk-custom', id: 11, t: skTime(3), conflict: 'c-confirmation', term: 'confirmation' }),
    skSenseByPipeline({ id: 12, t: skTime(3, 10), term: 'confirmation', definition: 'The email sent once payment succeeds' }),
    // CLI resolve with a custom definition (non-ASCII, escaped by json.dumps), then a pick of an option
    skResolvedByCli({ t: skTime(4), conflict: 'c-delivery', term: 'delivery', sense: { surface: 'delivery', scope: 'team_domain', definition: 'Livraison — le colis arrivé', confidence: 1.0 } }),
    skSenseByCli({ t: skTime(4, 10), term: 'delivery', definition: 'Livraison — le colis arrivé' }),
    skResolvedByCli({ t: skTime(5), conflict: 'c-order', term: 'order', sense: { surface: 'order', scope: 'unknown', definition: 'The purchase a shopper made', confidence: 0.5 } }),
  ].map(skLine);
}

const positioned = (text: string, label = LOG): PositionedEvent[] => {
  const { events, positions, problems } = parseEventLog(text, label);
  expect(problems).toEqual([]);
  return events.map((event, i) => ({ event, position: positions[i]! }));
};

describe("reading Spec Kitty's lines", () => {
  it('every shape is valid: no problem, missing mission ids come from the file name, finding terms become strings', () => {
    const lines = specKittyLog();
    expect(lines.join('\n')).toMatch(/^[\x20-\x7e\n]*$/); // json.dumps escapes non-ASCII
    const { events, positions, problems } = parseEventLog(lines.join('\n') + '\n', LOG);
    expect(problems).toEqual([]);
    expect(events).toHaveLength(lines.length);
    expect(events.every((e) => e.mission_id === M && e.lamport_clock === undefined)).toBe(true);
    const check = events.find((e) => e.event_type === 'SemanticCheckEvaluated')!;
    expect(check).toMatchObject({ effective_strictness: 'None', findings: [{ term: 'workspace' }, { term: 'delivery' }, { term: 'order' }] });
    const cli = events.filter((e) => e.event_type === 'GlossaryClarificationResolved' && e.resolution_mode === 'async');
    expect(cli.map((e) => e.event_id)).toEqual([undefined, undefined]);
    // No clock anywhere: every line keeps its place in file order.
    expect(positions.map((p) => [p.clock, p.seq])).toEqual(lines.map((_, i) => [0, i + 1]));
  });

  it("replay's fast path reads each line's type right (nested objects before `event_type` included) and keeps exactly the state lines", () => {
    const lines = specKittyLog();
    const types = lines.map((l) => (JSON.parse(l) as { event_type: string }).event_type);
    expect(lines.map((l) => sniffEventType(l))).toEqual(types);
    const { events } = parseEventLog(lines.join('\n') + '\n', LOG, { wants: (t) => STATE_EVENT_TYPES.has(t) });
    expect(events.map((e) => e.event_type)).toEqual(types.filter((t) => STATE_EVENT_TYPES.has(t as never)));
  });

  it('replays like our own decisions: pins, custom senses, the clarifications they close', () => {
    const state = replayEvents(positioned(specKittyLog().join('\n')));
    const json = replayToJson(state, M);
    expect(json.open_clarifications.map((o) => o.conflict_id)).toEqual(['c-ws-1']); // the deferred one nobody answered
    expect(json.pins.map((p) => [p.term, p.selected_sense.definition, p.selected_sense.scope, p.conflict_id, p.event_id])).toEqual([
      ['workspace', VSCODE.definition, 'team_domain', 'c-ws-2', expect.any(String)],
      // custom mode: the sense answers the request just before it, and is pinned
      ['confirmation', 'The email sent once payment succeeds', 'team_domain', 'c-confirmation', expect.any(String)],
      ['delivery', 'Livraison — le colis arrivé', 'team_domain', 'c-delivery', null],
      // a CLI pick of an option has scope "unknown": pinned in team_domain, where Spec Kitty records decisions
      ['order', 'The purchase a shopper made', 'team_domain', 'c-order', null],
    ]);
    expect(json.senses.team_domain.map((s) => [s.surface, s.definition, s.event_id])).toEqual([
      ['confirmation', 'The email sent once payment succeeds', expect.any(String)],
      ['delivery', 'Livraison — le colis arrivé', null],
    ]);
    expect(json.problems).toEqual([]);
  });

  it('a custom answer closes only the request it answers; an older one of the same term stays open', () => {
    const lines = [
      skRequested({ mission: M, run: 'sk-defer', id: 1, t: skTime(1), conflict: 'old', term: 'confirmation' }),
      skRequested({ mission: M, run: 'sk-custom', id: 2, t: skTime(2), conflict: 'new', term: 'confirmation' }),
      skSenseByPipeline({ id: 3, t: skTime(3), term: 'confirmation', definition: 'The email' }),
      // a sense updated with no request before it answers nothing
      skSenseByPipeline({ id: 4, t: skTime(4), term: 'delivery', definition: 'The parcel arriving' }),
      skRequested({ mission: M, run: 'sk-defer', id: 5, t: skTime(5), conflict: 'later', term: 'delivery' }),
    ].map(skLine);
    const json = replayToJson(replayEvents(positioned(lines.join('\n'))), M);
    expect(json.open_clarifications.map((o) => o.conflict_id)).toEqual(['old', 'later']);
    expect(json.pins.map((p) => [p.term, p.conflict_id])).toEqual([['confirmation', 'new']]);
  });

  it("its CLI's custom definition (Resolved, then the sense) answers the request it names, not an older one of the term", () => {
    const custom = { surface: 'pci', scope: 'team_domain', definition: 'A card slot', confidence: 1 };
    const lines = [
      skRequested({ mission: M, run: 'sk-defer', id: 1, t: skTime(1), conflict: 'older', term: 'pci' }),
      skRequested({ mission: M, run: 'sk-max', id: 2, t: skTime(2), conflict: 'named', term: 'pci' }),
      skResolvedByCli({ t: skTime(3), conflict: 'named', term: 'pci', sense: custom }),
      skSenseByCli({ t: skTime(4), term: 'pci', definition: 'A card slot' }),
    ].map(skLine);
    const json = replayToJson(replayEvents(positioned(lines.join('\n'))), M);
    expect(json.open_clarifications.map((o) => o.conflict_id)).toEqual(['older']);
    expect(json.pins.map((p) => [p.term, p.conflict_id, p.selected_sense.definition])).toEqual([['pci', 'named', 'A card slot']]);
  });

  it('our own custom decision (SenseUpdated + Resolved) is one answer, never reported twice', () => {
    const state = replayEvents([requested({ conflict: 'c1', term: 'frobnicator', lamport: 1 }), senseUpdated({ lamport: 2 }), resolved({ conflict: 'c1', term: 'frobnicator', definition: 'A device that frobs widgets', lamport: 3 })]);
    expect(state.openClarifications).toEqual([]);
    expect(state.problems).toEqual([]);
    expect(state.pins.map((p) => p.conflictId)).toEqual(['c1']);
  });

  it('lines without event_id are all distinct: resolving again is two resolutions (reported with their lines), copies of a line with an id count once', () => {
    const again = skLine(skResolvedByCli({ t: skTime(6), conflict: 'c-delivery', term: 'delivery', sense: { surface: 'delivery', scope: 'team_domain', definition: 'The parcel arriving', confidence: 1 } }));
    const request = skLine(skRequested({ mission: M, run: 'r', id: 9, t: skTime(1), conflict: 'c-delivery', term: 'delivery' }));
    const state = replayEvents(positioned([request, request, again, again].join('\n')));
    expect(state.problems).toEqual([
      {
        eventId: '',
        missionId: M,
        line: 4,
        message: `conflict c-delivery was resolved by 2 events; the first (line 3 of the log of ${M}) closed it, the later ones (latest line 4 of the log of ${M}) still pin their senses`,
      },
    ]);
  });
});

describe('mixed logs: our lines and Spec Kitty lines interleaved', () => {
  // Ours carry clocks 1, 2 then 3, 4; Spec Kitty's between them have none (and timestamps that
  // would sort them first): file order decides.
  const ours1 = requested({ conflict: 'c1', term: 'workspace', lamport: 1, mission: M, timestamp: '2026-11-24T13:00:00.000Z' });
  const ours2 = resolved({ conflict: 'c1', term: 'workspace', definition: WORKTREE.definition, lamport: 2, mission: M, timestamp: '2026-11-24T13:00:01.000Z' });
  const theirs = skResolvedByCli({ t: skTime(1), conflict: 'c9', term: 'workspace', sense: VSCODE });
  const ours3 = observed({ lamport: 3, mission: M });
  const ours4 = requested({ conflict: 'c2', term: 'order', lamport: 4, mission: M, timestamp: '2026-11-24T13:00:02.000Z' });
  const text = [ours1, ours2, theirs, ours3, ours4].map((e) => serializeEvent(e)).join('\n') + '\n';

  it('a line without a clock inherits the highest clock before it and sorts right after that line', () => {
    const items = positioned(text);
    expect(items.map((i) => [i.position.clock, i.position.seq])).toEqual([
      [1, 0],
      [2, 0],
      [2, 3],
      [3, 0],
      [4, 0],
    ]);
    // Spec Kitty's later pick wins over our earlier one, whatever the timestamps say.
    expect(replayToJson(replayEvents(items), M).pins.map((p) => p.selected_sense.definition)).toEqual([VSCODE.definition]);
  });

  it("replay's fast path reads only the state lines: a line without a clock inherits the highest clock among the earlier ones, which keeps file order among them", () => {
    const { events, positions } = parseEventLog(text, LOG, { wants: (t) => STATE_EVENT_TYPES.has(t) });
    expect(events.map((e) => e.event_type)).toEqual(['GlossaryClarificationRequested', 'GlossaryClarificationResolved', 'GlossaryClarificationResolved', 'GlossaryClarificationRequested']);
    expect(positions.map((p) => [p.clock, p.seq])).toEqual([
      [1, 0],
      [2, 0],
      [2, 3],
      [4, 0],
    ]);
    // An audit line skipped unparsed (clock 7) does not count; the state lines keep file order.
    const afterSkipped = [serializeEvent(resolved({ conflict: 'c0', lamport: 5, mission: M })), serializeEvent(observed({ lamport: 7, mission: M })), skLine(theirs), serializeEvent(requested({ conflict: 'c3', lamport: 8, mission: M }))].join('\n');
    expect(parseEventLog(afterSkipped, LOG, { wants: (t) => STATE_EVENT_TYPES.has(t) }).positions).toEqual([
      { clock: 5, seq: 0, line: 1 },
      { clock: 5, seq: 3, line: 3 },
      { clock: 8, seq: 0, line: 4 },
    ]);
  });

  it('the state does not depend on the order the events arrive in (files read in any order)', () => {
    const other = `/ws/.kittify/events/glossary/other.events.jsonl`;
    const items = [...positioned(text), ...positioned(specKittyLog().join('\n'), other)];
    const reference = JSON.stringify(replayEvents(items));
    for (let seed = 1; seed <= 20; seed++) {
      const shuffled = [...items].sort((a, b) => ((JSON.stringify(a).length * seed) % 7) - ((JSON.stringify(b).length * seed) % 7));
      expect(JSON.stringify(replayEvents(shuffled))).toBe(reference);
    }
  });

  it("lines without mission_id in a log whose name is a sanitized mission id belong to that mission", () => {
    const mission = '041/demo mission';
    const label = '/ws/.kittify/events/glossary/041-demo-mission.events.jsonl';
    const lines = [serializeEvent(requested({ conflict: 'c1', lamport: 1, mission })), skLine(skResolvedByCli({ t: skTime(1), conflict: 'c1', term: 'workspace', sense: WORKTREE }))];
    const state = replayEvents(positioned(lines.join('\n'), label));
    expect(state.pins.map((p) => p.missionId)).toEqual([mission]);
    expect(state.openClarifications).toEqual([]);
  });
});

describe('clocks and placeholders', () => {
  it('a clock beyond 2^52 is untrusted: a warning, and the line is ordered by its place in the file', () => {
    const hostile = { ...resolved({ conflict: 'c1', lamport: 1, mission: M }), lamport_clock: 2 ** 53 - 2 };
    const text = [serializeEvent(requested({ conflict: 'c1', lamport: 5, mission: M })), JSON.stringify(hostile)].join('\n');
    const { events, positions, problems } = parseEventLog(text, LOG);
    expect(problems).toEqual([{ file: LOG, line: 2, severity: 'warning', code: 'events.untrusted-clock', message: expect.stringMatching(/^lamport_clock 9007199254740990 is beyond 4503599627370496 \(2\^52\)/) }]);
    expect((events[1] as LoggedEvent).lamport_clock).toBeUndefined();
    expect(positions[1]).toEqual({ clock: 5, seq: 2, line: 2 });
  });

  it('what datetime.fromisoformat reads is a timestamp (str(datetime), a date alone); a status word Spec Kitty does not know is read as draft, with a warning', () => {
    const sense = skSenseByPipeline({ id: 1, t: '2026-02-16 12:00:02+00:00', term: 'lane', definition: 'A track' });
    const retired = { ...sense, event_id: skId(3), new_sense: { ...sense.new_sense, surface: 'cell', definition: 'A box', status: 'retired' }, term_surface: 'cell', timestamp: '2026-02-16' };
    const text = [
      skLine(sense),
      skLine(skRequested({ mission: M, run: 'r', id: 2, t: '2026-02-16 12:00:03.25+00:00', conflict: 'c1', term: 'api' })),
      skLine(skResolvedByCli({ t: '2026-02-16 12:00:04', conflict: 'c1', term: 'api', sense: { surface: 'api', scope: 'team_domain', definition: 'An interface', confidence: 1 } })),
      skLine(retired),
    ].join('\n');
    const parsed = parseEventLog(text, LOG);
    expect(parsed.problems).toEqual([]);
    const state = replayEvents(positioned(text));
    expect(state.pins.map((p) => [p.term, p.sense.definition])).toEqual([['api', 'An interface']]);
    expect(state.addedSenses.map((s) => [s.surface, s.status])).toEqual([['lane', 'active'], ['cell', 'draft']]);
    expect(state.problems!.map((p) => [p.line, p.message])).toEqual([[4, `new_sense.status 'retired' of 'cell' is not active, draft or deprecated; it is read as draft, as Spec Kitty reads it`]]);
  });

  it('a placeholder definition adds no sense and pins nothing, with a problem; the request it answers is still closed', () => {
    const state = replayEvents(
      positioned(
        [
          skLine(skSenseByPipeline({ id: 1, t: skTime(1), term: 'pci', definition: 'TODO: define pci' })),
          skLine(skRequested({ mission: M, run: 'r', id: 2, t: skTime(2), conflict: 'c1', term: 'api' })),
          skLine(skResolvedByCli({ t: skTime(3), conflict: 'c1', term: 'api', sense: { surface: 'api', scope: 'team_domain', definition: 'TBD', confidence: 1 } })),
        ].join('\n'),
      ),
    );
    expect(state.addedSenses).toEqual([]);
    expect(state.pins).toEqual([]);
    expect(state.openClarifications).toEqual([]);
    expect(state.problems!.map((p) => [p.line, p.message])).toEqual([
      [1, `the definition of 'pci' is a placeholder ("TODO: define pci"); the sense is not added until it is written`],
      [3, `the selected sense of 'api' has a placeholder definition ("TBD"); the conflict is closed but nothing is pinned`],
    ]);
  });
});
