/** A KV whose every finished atomic commit runs a callback: tests count or time commits with it. */

/** `kv` with `afterCommit` called once each atomic commit has finished, before its caller resumes. */
export function onCommit(kv: Deno.Kv, afterCommit: () => void): Deno.Kv {
  return new Proxy(kv, {
    get(target, name) {
      if (name !== "atomic") {
        const value = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return () => {
        const op = target.atomic();
        const commit = op.commit.bind(op);
        op.commit = async () => {
          const result = await commit();
          afterCommit();
          return result;
        };
        return op;
      };
    },
  });
}
