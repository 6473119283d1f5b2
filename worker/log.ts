/** The worker's logging seam: the process logs to stdout/stderr, tests pass their own. */
export type Logger = {
  info(message: string): void;
  error(message: string): void;
};

export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  error: (message) => console.error(message),
};

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
