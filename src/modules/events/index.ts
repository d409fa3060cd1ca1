/** The events module's import surface: domain events (the outbox webhooks deliver from) and their fan-out. */
export { recordEvent, type EventEnvelope } from './events.repo.js';
export { registerEventHook, type EventHook, type RecordedEvent } from './events.hooks.js';
