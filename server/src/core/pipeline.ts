/**
 * The check is a middleware chain (SPEC §6, seeds 000 and 003): five phases in a fixed order;
 * inside a phase units run by explicit before/after constraints, then numeric priority (lower
 * first), then id. A dependency cycle is a configuration error reported when the chain is built.
 */

export const PHASES = ['extraction', 'semantic_check', 'generation_gate', 'clarification', 'resume'] as const;
export type Phase = (typeof PHASES)[number];

export interface Unit<C> {
  id: string;
  phase: Phase;
  priority?: number;
  before?: readonly string[];
  after?: readonly string[];
  /** Units that are part of the machinery (not user-facing extractors) cannot be disabled. */
  required?: boolean;
  run(context: C): void;
}

export class PipelineConfigError extends Error {
  override readonly name = 'PipelineConfigError';
}

export class Pipeline<C> {
  /** Units in execution order. */
  readonly order: readonly Unit<C>[];

  constructor(units: readonly Unit<C>[]) {
    const ids = new Set<string>();
    for (const unit of units) {
      if (ids.has(unit.id)) throw new PipelineConfigError(`Two pipeline units share the id '${unit.id}'.`);
      if (!(PHASES as readonly string[]).includes(unit.phase)) throw new PipelineConfigError(`Unit '${unit.id}' names an unknown phase '${unit.phase}'.`);
      ids.add(unit.id);
    }
    this.order = PHASES.flatMap((phase) => orderPhase(units.filter((u) => u.phase === phase)));
  }

  ids(): string[] {
    return this.order.map((u) => u.id);
  }

  run(context: C, disabled: ReadonlySet<string> = new Set()): void {
    for (const unit of this.order) {
      if (!unit.required && disabled.has(unit.id)) continue;
      unit.run(context);
    }
  }
}

/** Topological order by before/after; among ready units the lowest (priority, id) goes first. */
function orderPhase<C>(units: Unit<C>[]): Unit<C>[] {
  const byId = new Map(units.map((u) => [u.id, u]));
  const mustPrecede = new Map<string, Set<string>>(units.map((u) => [u.id, new Set<string>()]));
  for (const unit of units) {
    // Constraints naming units of another phase (or absent ones) do not bind inside this phase.
    for (const other of unit.before ?? []) if (byId.has(other)) mustPrecede.get(other)!.add(unit.id);
    for (const other of unit.after ?? []) if (byId.has(other)) mustPrecede.get(unit.id)!.add(other);
  }
  const ordered: Unit<C>[] = [];
  const done = new Set<string>();
  const rank = (a: Unit<C>, b: Unit<C>) => (a.priority ?? 0) - (b.priority ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  while (ordered.length < units.length) {
    const ready = units.filter((u) => !done.has(u.id) && [...mustPrecede.get(u.id)!].every((d) => done.has(d))).sort(rank);
    if (ready.length === 0) {
      const stuck = units.filter((u) => !done.has(u.id)).map((u) => u.id);
      throw new PipelineConfigError(`Pipeline units form a dependency cycle in phase '${units[0]!.phase}': ${describeCycle(stuck, mustPrecede)}.`);
    }
    ordered.push(ready[0]!);
    done.add(ready[0]!.id);
  }
  return ordered;
}

function describeCycle(stuck: string[], mustPrecede: Map<string, Set<string>>): string {
  // Walk predecessors from any stuck unit until one repeats: that loop is the cycle.
  const path: string[] = [];
  let current = stuck[0]!;
  while (!path.includes(current)) {
    path.push(current);
    current = [...mustPrecede.get(current)!].find((d) => stuck.includes(d)) ?? current;
  }
  const loop = path.slice(path.indexOf(current)).reverse();
  return [...loop, loop[0]].join(' → ');
}

/** Policy decisions merged as in seed 003's lattice. */
export type DecisionKind = 'allow' | 'deny' | 'transform' | 'warn' | 'annotate';

export interface Decision {
  kind: DecisionKind;
  reasonCode: string;
  message: string;
  audit?: Record<string, unknown>;
}

export interface MergedDecision {
  blocked: boolean;
  denials: Decision[];
  warnings: Decision[];
  annotations: Decision[];
}

/** Any deny blocks; warnings and annotations accumulate in the order they were made. */
export function mergeDecisions(decisions: readonly Decision[]): MergedDecision {
  return {
    blocked: decisions.some((d) => d.kind === 'deny'),
    denials: decisions.filter((d) => d.kind === 'deny'),
    warnings: decisions.filter((d) => d.kind === 'warn'),
    annotations: decisions.filter((d) => d.kind === 'annotate'),
  };
}
