// Types of check.mjs, for the TypeScript tests that import it.
export interface OperationRef {
  operationId: unknown;
  method: string;
  path: string;
}
export interface LogEntry {
  operationId: string;
  status: number;
}
export interface Evaluation {
  passed: string[];
  missing: string[];
  pending: string[];
  unknownPending: string[];
  duplicatePending: string[];
  coveredPending: string[];
  unknownLogged: string[];
}
export function collectOperations(doc: unknown): OperationRef[];
export function parsePending(text: string): string[];
export function parseOperationLog(text: string, source?: string): { entries: LogEntry[]; errors: string[] };
export function evaluate(input: { operationIds: string[]; pending: string[]; entries: LogEntry[] }): Evaluation;
export function runCheck(input: {
  specText: string;
  pendingText: string;
  logs: { source: string; text: string }[];
  missingLogs?: string[];
}): { ok: boolean; lines: string[]; result: Evaluation };
