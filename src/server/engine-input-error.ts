/** A request the engine cannot serve as asked; the server answers 400 naming `param`. */
export class EngineInputError extends Error {
  constructor(
    message: string,
    readonly param: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** Every sequence is busy and the wait queue is full; the server answers 429. */
export class EngineBusyError extends Error {}
