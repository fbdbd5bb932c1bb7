/** Injected time source so rules with time in them are testable without sleeping. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
