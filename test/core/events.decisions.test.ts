import { describe, expect, it } from 'vitest';
import { validateDraft } from '../../server/src/core/events/validate';
import { clarificationQuestion, conflictIdsToClose, requestedEvent, resolutionsAgainst, resolvedEvent, senseCreatedEvent, type DecisionContext } from '../../server/src/core/events/decisions';
import type { OpenClarification } from '../../server/src/core/types';

const ctx: DecisionContext = {
  missionId: 'm-1',
  runId: 'lsp-6f1c2d9e-3b7a-4c55-9a0e-2f4d8b1c7e10',
  actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' },
  timestamp: '2026-02-16T12:20:00.000Z',
};

describe('decision events', () => {
  it('builds a valid GlossaryClarificationResolved with actor, interactive mode and provenance', () => {
    const event = resolvedEvent(ctx, 'c-1', 'workspace', { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree', confidence: 0.9 });
    expect(validateDraft(event)).toMatchObject({ ok: true });
    expect(event).toEqual({
      event_type: 'GlossaryClarificationResolved',
      mission_id: 'm-1',
      run_id: ctx.runId,
      conflict_id: 'c-1',
      term_surface: 'workspace',
      selected_sense: { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree', confidence: 0.9 },
      actor: ctx.actor,
      resolution_mode: 'interactive',
      provenance: { source: 'user_clarification', timestamp: ctx.timestamp, actor_id: 'user:alice' },
    });
  });

  it('builds a valid GlossarySenseUpdated that creates an active sense with confidence 1.0', () => {
    const event = senseCreatedEvent(ctx, 'frobnicator', 'mission_local', 'A device that frobs widgets');
    expect(validateDraft(event)).toMatchObject({ ok: true });
    expect(event).toMatchObject({ scope: 'mission_local', update_type: 'create', new_sense: { surface: 'frobnicator', scope: 'mission_local', definition: 'A device that frobs widgets', confidence: 1, status: 'active' } });
  });

  it('builds a valid GlossaryClarificationRequested with the question, options and urgency', () => {
    const event = requestedEvent(ctx, 'c-2', 'workspace', 'spec', ['a', 'b'], 'high');
    expect(validateDraft(event)).toMatchObject({ ok: true });
    expect(event).toMatchObject({ question: "What does 'workspace' mean in this context?", term: 'workspace', options: ['a', 'b'], urgency: 'high', step_id: 'spec', conflict_id: 'c-2' });
    expect(clarificationQuestion('qzx')).toBe("What does 'qzx' mean in this context?");
  });

  it('closes every open clarification of the term, or opens a new conflict', () => {
    expect(conflictIdsToClose([{ conflictId: 'a' }, { conflictId: 'b' }], () => 'new')).toEqual(['a', 'b']);
    expect(conflictIdsToClose([], () => 'new')).toEqual(['new']);
  });
});

describe('resolutionsAgainst: a decision planned again inside the writers\' lock', () => {
  const sense = { surface: 'workspace', scope: 'team_domain' as const, definition: 'Git worktree', confidence: 0.9 };
  const open = (...ids: string[]): { openClarifications: OpenClarification[] } => ({ openClarifications: ids.map((conflictId) => ({ missionId: 'm-1', term: 'workspace', conflictId, eventId: `e-${conflictId}`, stepId: 'spec', question: 'q', options: [], urgency: 'high', timestamp: ctx.timestamp })) });
  const ids = (drafts: ReturnType<typeof resolutionsAgainst>) => drafts.map((d) => `${d.event_type}:${'conflict_id' in d ? d.conflict_id : ''}`);
  const newId = () => 'new';
  const created = senseCreatedEvent(ctx, 'workspace', 'team_domain', 'Git worktree');

  it('nothing changed meanwhile: the drafts as planned', () => {
    const drafts = [created, resolvedEvent(ctx, 'c-1', 'workspace', sense), resolvedEvent(ctx, 'c-2', 'workspace', sense)];
    expect(ids(resolutionsAgainst(drafts, open('c-1', 'c-2'), new Set(['c-1', 'c-2']), newId))).toEqual(['GlossarySenseUpdated:', 'GlossaryClarificationResolved:c-1', 'GlossaryClarificationResolved:c-2']);
  });

  it('a clarification another writer closed meanwhile is not closed again; with none left open the decision takes an id of its own', () => {
    const drafts = [resolvedEvent(ctx, 'c-1', 'workspace', sense), resolvedEvent(ctx, 'c-2', 'workspace', sense)];
    expect(ids(resolutionsAgainst(drafts, open('c-2'), new Set(['c-1', 'c-2']), newId))).toEqual(['GlossaryClarificationResolved:c-2']);
    const none = resolutionsAgainst(drafts, open(), new Set(['c-1', 'c-2']), newId);
    expect(ids(none)).toEqual(['GlossaryClarificationResolved:new']);
    expect(none[0]).toMatchObject({ selected_sense: sense, term_surface: 'workspace' });
  });

  it('a clarification opened meanwhile is closed by the decision; one made with its own id and nothing open stays as it is', () => {
    const fresh = [resolvedEvent(ctx, 'mine', 'workspace', sense)];
    expect(ids(resolutionsAgainst(fresh, open('c-9'), new Set(), newId))).toEqual(['GlossaryClarificationResolved:c-9']);
    expect(ids(resolutionsAgainst(fresh, open(), new Set(), newId))).toEqual(['GlossaryClarificationResolved:mine']);
  });
});
