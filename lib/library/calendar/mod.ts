/** The release calendar: a user's films' release dates by day (docs/calendar.md). */
export { type Calendar, type CalendarService, createCalendarService } from "./service.ts";
export type { CalendarEvent } from "./events.ts";
export { type CalendarMonth, calendarMonth } from "./month.ts";
export {
  CALENDAR_TYPES,
  type CalendarQuery,
  calendarQuerySchema,
  type CalendarType,
  MAX_SPAN_DAYS,
  parseCalendarQuery,
} from "./query.ts";
