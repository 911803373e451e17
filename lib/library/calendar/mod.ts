/** The release calendar: a user's films' release dates by day (docs/calendar.md). */
export { type Calendar, type CalendarService, createCalendarService } from "./service.ts";
export {
  CALENDAR_TYPES,
  calendarQuerySchema,
  MAX_SPAN_DAYS,
  parseCalendarQuery,
} from "./query.ts";
