/*
 * The game's Socket.IO connection (namespace /game): joins the game's room on every
 * (re)connect, sends intents with the game's id, and hands server events to one handler
 * table. Socket.IO's client is the vendored UMD build, loaded before the modules as
 * window.io. Every intent resolves with the server's acknowledgement ({ok} or
 * {ok: false, error}); errors also arrive as `error` events, which the table shows.
 */
const ACK_TIMEOUT_MS = 10000;

export class GameSocket {
  constructor(gameId, { onConnect, onDisconnect } = {}) {
    this.gameId = gameId;
    // WebSocket first: it needs no sticky sessions when several server processes share
    // the load; long-polling remains as a fallback where WebSockets are blocked.
    this.io = window.io("/game", { transports: ["websocket", "polling"], tryAllTransports: true });
    this.connected = false;
    this.io.on("connect", () => {
      this.connected = true;
      this.intent("join");
      if (onConnect) onConnect();
    });
    this.io.on("disconnect", () => {
      this.connected = false;
      if (onDisconnect) onDisconnect();
    });
    this.io.on("connect_error", () => {
      if (onDisconnect) onDisconnect();
    });
  }

  /** Routes each server event to its handler; events about another game are dropped. */
  handle(table) {
    for (const [name, handler] of Object.entries(table)) {
      this.io.on(name, (payload) => {
        if (payload && typeof payload === "object") {
          const game = payload.game ?? payload.game_id;
          if (game !== undefined && game !== this.gameId) return;
        }
        handler(payload);
      });
    }
  }

  /** Sends an intent; resolves with the acknowledgement, or null when offline. */
  intent(event, fields = {}) {
    if (!this.connected) return Promise.resolve(null);
    const payload = Object.assign({ game_id: this.gameId }, fields);
    return new Promise((resolve) => {
      this.io.timeout(ACK_TIMEOUT_MS).emit(event, payload, (err, reply) => {
        resolve(err ? { ok: false, error: { code: "unavailable" }, timeout: true } : reply);
      });
    });
  }
}
