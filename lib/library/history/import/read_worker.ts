/**
 * The entry of a history file's read worker (read_off_thread.ts starts one per read and ends it
 * after): one request in, its answers out (read_in_worker.ts).
 */
import { answerRead } from "./read_in_worker.ts";
import type { ReadRequest } from "./read_messages.ts";

self.addEventListener("message", (event) => {
  const request = (event as MessageEvent<ReadRequest>).data;
  answerRead(request, (answer) => self.postMessage(answer));
}, { once: true });
