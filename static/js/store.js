/*
 * The game's state as the server last sent it. States carry a `version` that only grows;
 * an older one (a late packet, a reconnect race) is ignored. Subscribers hear of every
 * accepted state with the one before it.
 */
import { readState } from "./contract.js";

export class StateStore {
  constructor(initial) {
    this.state = readState(initial);
    this.listeners = [];
  }

  get version() {
    return this.state.version;
  }

  /** Takes a state from the server; false when it is older than the one held. */
  offer(raw) {
    if (!raw || typeof raw.version !== "number") return false;
    if (raw.version < this.state.version) return false;
    const previous = this.state;
    this.state = readState(raw);
    for (const fn of this.listeners) fn(this.state, previous);
    return true;
  }

  /** Changes a field the server announces apart from states (the spectator count). */
  patch(changes) {
    this.state = Object.assign({}, this.state, changes);
  }

  subscribe(fn) {
    this.listeners.push(fn);
  }
}
