/** The alert delivery queue and its worker (docs/alerts.md, "Delivery"). */
export { createDeliveryWorker, type DeliveryWorker } from "./worker.ts";
