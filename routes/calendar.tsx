/**
 * `/calendar`: when the films on My List (or watched, or every list) come out, by release type,
 * in the user's region: a month grid on wide screens, an agenda on phones, type filters as a
 * plain form, and the iCal feed to add to a calendar app, with its QR code
 * (docs/calendar.md, "The page").
 */
import { SignInPrompt } from "@/components/SignInPrompt.tsx";
import { Title } from "@/components/Title.tsx";
import type { Handlers, PageProps } from "@/lib/http/app_env.ts";
import {
  type Calendar,
  CALENDAR_TYPES,
  type CalendarEvent,
  type CalendarMonth,
  calendarMonth,
  type CalendarQuery,
  type CalendarType,
} from "@/lib/library/calendar/mod.ts";
import { calendarFeedUrl } from "@/lib/connections/feeds/calendar_ics.ts";
import { qrSvg } from "@/lib/identity/mfa/qr_code.ts";
import { regionName } from "@/lib/catalog/region_choice.ts";

interface Data {
  month: CalendarMonth;
  calendar: Calendar;
  types: CalendarType[];
  list: CalendarQuery["list"];
  feedUrl: string;
  qr: string;
  today: string;
}

const LABELS: Record<CalendarType, string> = {
  premiere: "Premiere",
  theatrical: "In theaters",
  digital: "Digital",
  physical: "Disc",
  tv: "TV",
};

const LISTS: [CalendarQuery["list"], string][] = [
  ["mylist", "My List"],
  ["watched", "Watched"],
  ["all", "All my films"],
];

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const params = new URL(c.req.url).searchParams;
    const now = c.var.deps.clock.now();
    const month = calendarMonth(params.get("month"), now);
    // A form with no box ticked sends no types: that shows every type, as no filter does.
    const picked = new Set(params.getAll("types").flatMap((t) => t.split(",")));
    const chosen = CALENDAR_TYPES.filter((t) => picked.has(t));
    const types = chosen.length > 0 ? chosen : [...CALENDAR_TYPES];
    const list = LISTS.find(([value]) => value === params.get("list"))?.[0] ?? "mylist";
    const services = c.var.services;
    const calendar = await services.calendar.read(user.id, {
      from: month.from,
      to: month.to,
      types,
      list,
    });
    const settings = await services.connections.settings(user.id);
    const feedUrl = calendarFeedUrl(settings.feedUrl, {
      types,
      allTypes: types.length === CALENDAR_TYPES.length,
      list,
    });
    const data: Data = {
      month,
      calendar,
      types,
      list,
      feedUrl,
      qr: await qrSvg(feedUrl),
      today: new Date(now).toISOString().slice(0, 10),
    };
    const response = await c.var.render(data);
    // The page holds the feed's secret.
    response.headers.set("cache-control", "private, no-store");
    return response;
  },
};

const monthName = (key: string) =>
  new Date(`${key}-01T00:00:00Z`).toLocaleDateString("en", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

const dayName = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en", {
    weekday: "long",
    day: "numeric",
    month: "long",
    timeZone: "UTC",
  });

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const WEEKDAY_NAMES = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
];

function monthHref(data: Data, month: string): string {
  const q = new URLSearchParams({ month });
  if (data.types.length < CALENDAR_TYPES.length) {
    for (const t of data.types) q.append("types", t);
  }
  if (data.list !== "mylist") q.set("list", data.list);
  return `/calendar?${q}`;
}

function EventItem({ event }: { event: CalendarEvent }) {
  return (
    <li class={`release release-${event.type}`}>
      <a href={`/movies/${event.catalogId}`}>{event.title || `Movie ${event.catalogId}`}</a>{" "}
      <span class="release-type">
        {LABELS[event.type]}
        {event.region ? ` (${event.region})` : ""}
      </span>
    </li>
  );
}

function Filters({ data }: { data: Data }) {
  return (
    <form class="calendar-filters" method="get" action="/calendar">
      <input type="hidden" name="month" value={data.month.key} />
      <fieldset>
        <legend>Release types</legend>
        {CALENDAR_TYPES.map((t) => (
          <label key={t} class="checkbox">
            <input type="checkbox" name="types" value={t} checked={data.types.includes(t)} />{" "}
            {LABELS[t]}
          </label>
        ))}
      </fieldset>
      <label>
        Films{" "}
        <select name="list">
          {LISTS.map(([value, label]) => (
            <option key={value} value={value} selected={value === data.list}>{label}</option>
          ))}
        </select>
      </label>
      <button type="submit" class="button">Show</button>
    </form>
  );
}

function MonthGrid({ data, byDay }: { data: Data; byDay: Map<string, CalendarEvent[]> }) {
  return (
    <table class="calendar-grid">
      <caption class="sr-only">Releases in {monthName(data.month.key)}</caption>
      <thead>
        <tr>
          {WEEKDAYS.map((d, i) => <th key={d} scope="col" abbr={WEEKDAY_NAMES[i]}>{d}</th>)}
        </tr>
      </thead>
      <tbody>
        {data.month.weeks.map((week, w) => (
          <tr key={w}>
            {week.map((day, i) =>
              day
                ? (
                  <td
                    key={day}
                    class={day === data.today ? "is-today" : undefined}
                    aria-current={day === data.today ? "date" : undefined}
                  >
                    <span class="day-number">{Number(day.slice(8))}</span>
                    {byDay.has(day)
                      ? (
                        <ul>
                          {byDay.get(day)!.map((e) => (
                            <EventItem key={`${e.catalogId}-${e.type}`} event={e} />
                          ))}
                        </ul>
                      )
                      : null}
                  </td>
                )
                : <td key={`empty-${i}`} class="is-outside"></td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Agenda({ byDay }: { byDay: Map<string, CalendarEvent[]> }) {
  return (
    <ol class="calendar-agenda">
      {[...byDay].map(([day, events]) => (
        <li key={day}>
          <h3>
            <time dateTime={day}>{dayName(day)}</time>
          </h3>
          <ul>{events.map((e) => <EventItem key={`${e.catalogId}-${e.type}`} event={e} />)}</ul>
        </li>
      ))}
    </ol>
  );
}

function Subscribe({ data }: { data: Data }) {
  const webcal = data.feedUrl.replace(/^https?:/, "webcal:");
  return (
    <section class="calendar-subscribe" aria-labelledby="subscribe-heading">
      <h2 id="subscribe-heading">Add to your calendar</h2>
      <p class="hint">
        Subscribe to this address in Apple Calendar, Google Calendar, Outlook or Thunderbird and
        these releases (with the filters above) stay in your calendar as all-day events. The address
        is private: anyone who has it sees the releases of your films. A new one is made on{" "}
        <a href="/account/connections#other-apps-heading">Connections</a>{" "}
        (the My List feed shares it).
      </p>
      <label for="calendar-feed-url">Feed address</label>
      <input id="calendar-feed-url" class="feed-url" type="text" readOnly value={data.feedUrl} />
      <p>
        <a href={webcal}>Open in your calendar app</a> ·{" "}
        <a
          href={`https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}`}
          rel="noopener noreferrer"
        >
          Add to Google Calendar
        </a>
      </p>
      <figure class="qr-code">
        <div
          role="img"
          aria-label="QR code of the feed address"
          // The SVG is made on the server from the address alone (qrcode), never from input.
          dangerouslySetInnerHTML={{ __html: data.qr }}
        />
        <figcaption>Scan to subscribe on your phone.</figcaption>
      </figure>
    </section>
  );
}

export default function CalendarPage({ data, url }: PageProps<Data | undefined>) {
  if (!data) {
    return (
      <section aria-labelledby="calendar-heading">
        <Title>Release calendar</Title>
        <h1 id="calendar-heading">Release calendar</h1>
        <SignInPrompt what="see when your films come out" next={url.pathname} />
      </section>
    );
  }
  const byDay = new Map<string, CalendarEvent[]>();
  for (const e of data.calendar.events) byDay.set(e.date, [...(byDay.get(e.date) ?? []), e]);
  const title = monthName(data.month.key);
  return (
    <section class="calendar-page" aria-labelledby="calendar-heading">
      <Title>Release calendar</Title>
      <h1 id="calendar-heading">Release calendar</h1>
      <p class="lead">
        When your films come out in {regionName(data.calendar.region)} (your region on{" "}
        <a href="/account#services-heading">your account</a>); a film with no date there shows its
        first one elsewhere, with that country's code.
      </p>
      <Filters data={data} />
      <nav class="calendar-months" aria-label="Months">
        <a href={monthHref(data, data.month.previous)} rel="prev">
          <span aria-hidden="true">←</span> {monthName(data.month.previous)}
        </a>
        <h2 id="month-heading">{title}</h2>
        <a href={monthHref(data, data.month.next)} rel="next">
          {monthName(data.month.next)} <span aria-hidden="true">→</span>
        </a>
      </nav>
      {byDay.size === 0 ? <p class="empty-state">No releases of your films in {title}.</p> : (
        <>
          <MonthGrid data={data} byDay={byDay} />
          <Agenda byDay={byDay} />
        </>
      )}
      <p class="hint">Release dates by TMDB.</p>
      <Subscribe data={data} />
    </section>
  );
}
