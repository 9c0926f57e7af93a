#!/usr/bin/env bash
# The README's two commands on a bare Debian 12 machine that boots with systemd, as a real one
# does: a fresh container of the stand-in base image plus systemd (base-image.sh --systemd), on
# podman's own network so nothing of this machine answers; only this checkout's tracked files are
# copied in. Then, as root: `bash scripts/setup.sh && pnpm start` and the README's first
# conversion, then `bash scripts/setup.sh && pnpm test` (BARE_TESTS: `all` for the whole suite,
# else these jest paths; the default covers PostgreSQL, RabbitMQ and Redis logins and the setup).
# Prints one JSON line: {"setup":…,"firstConversion":…,"tests":{"passed":…,"failed":…,"exit":…}}.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/ci/podman-env.sh
DEFAULT_TESTS="scripts/test/setup-system.test.ts services/gateway/test/startup-and-admin.test.ts services/gateway/test/rate-limits.test.ts services/gateway/test/convert-sync.test.ts packages/db/test/migrate-concurrently.test.ts"
TESTS=${BARE_TESTS:-$DEFAULT_TESTS}
[ "$TESTS" = all ] && TESTS=""
APP=/srv/markwright

bash scripts/ci/base-image.sh --systemd >&2
name="mw-ci-bare-$$"
podman run -d --name "$name" --systemd=always --hostname bare markwright-ci/bookworm-systemd /sbin/init >/dev/null
trap 'podman rm -f -t 5 "$name" >/dev/null 2>&1 || true' EXIT INT TERM
in_machine() { podman exec -i "$name" bash -c "$1"; }

for _ in $(seq 1 60); do
  state=$(podman exec "$name" systemctl is-system-running 2>/dev/null || true)
  case "$state" in running | degraded) break ;; esac
  sleep 1
done
git ls-files -z | tar --null -T - -cf - | in_machine "mkdir -p $APP && tar -xf - -C $APP"

start=$SECONDS
setup=0
in_machine "cd $APP && bash scripts/setup.sh" >"$CACHE_DIR/bare-setup.log" 2>&1 || setup=$?
echo "bare machine: setup exit $setup in $((SECONDS - start)) s" >&2

first='null'
if [ "$setup" -eq 0 ]; then
  podman exec -d "$name" bash -c "cd $APP && pnpm start >/tmp/start.log 2>&1"
  # The README's first conversion, answered by what `pnpm start` runs.
  first=$(in_machine "cd $APP && node -e '
    const { execFileSync } = require(\"node:child_process\");
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    (async () => {
      for (let i = 0; i < 300; i++) {
        const ok = await fetch(\"http://127.0.0.1:8080/readyz\").then((r) => r.ok, () => false);
        if (ok) break;
        await sleep(1000);
      }
      const ws = JSON.parse(execFileSync(\"pnpm\", [\"--silent\", \"admin\", \"workspace\", \"create\", \"--name\", \"Acme\", \"--plan\", \"starter\", \"--credits\", \"100\"]).toString());
      const form = new FormData();
      form.append(\"file\", new Blob([\"# Hello\\n\\nSome *text*.\\n\"]), \"hello.md\");
      form.append(\"include_metadata\", \"true\");
      const res = await fetch(\"http://127.0.0.1:8080/api/v1/convert\", { method: \"POST\", headers: { Authorization: \"Bearer \" + ws.token }, body: form });
      console.log(JSON.stringify({ status: res.status, body: await res.json() }));
    })().catch((e) => { console.log(JSON.stringify({ error: String(e) })); });
  '" 2>>"$CACHE_DIR/bare-setup.log" | tail -n 1) || first='{"error":"first conversion did not run"}'
  in_machine "pkill -INT -f 'node dist/start.js' || true; sleep 3; cat /tmp/start.log" >"$CACHE_DIR/bare-start.log" 2>&1 || true
fi
echo "bare machine: start and first conversion done at $((SECONDS - start)) s" >&2

test_exit=-1
if [ "$setup" -eq 0 ]; then
  test_exit=0
  # The README's test command; jest must exit on its own (the timeout is only a safety net).
  in_machine "cd $APP && bash scripts/setup.sh >/dev/null && timeout 1500 pnpm test -- $TESTS" >"$CACHE_DIR/bare-test.log" 2>&1 || test_exit=$?
fi
counts=$(in_machine "cd $APP && node -e 'const r=require(\"./jest-results.json\");console.log(JSON.stringify({passed:r.numPassedTests,failed:r.numFailedTests+r.numRuntimeErrorTestSuites}))'" 2>/dev/null || echo '{"passed":0,"failed":1}')
echo "bare machine: tests exit $test_exit at $((SECONDS - start)) s" >&2
echo "{\"setup\":$setup,\"firstConversion\":${first:-null},\"tests\":${counts%\}},\"exit\":$test_exit},\"seconds\":$((SECONDS - start))}"
