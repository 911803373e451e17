-- A move within a list renumbers the run between its old and new place in one update
-- (docs/user_lists.md). The deferrable unique key on (list_id, position) rechecked every
-- renumbered row at the statement's end: about 600 ms for a move across a 5,000-item list. The
-- positions stay exactly 1..n because every item write holds the list's row lock and writes
-- them in one statement (tests/user_lists_*_test.ts pin it, concurrent appends included), so a
-- plain index serves the page reads and the renumbering carries no per-row check.

alter table public.user_list_items drop constraint user_list_items_position_key;

create index user_list_items_position_idx on public.user_list_items (list_id, position);
