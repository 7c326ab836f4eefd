-- wrk script: each thread sends the requests of its own file, in order.
--   wrk ... -s bench/requests.lua URL -- PREFIX MODE
-- Thread n reads PREFIX.n: one request a line, fields separated by tabs: method, path, headers
-- ("Name: value" joined by \31), body. MODE "cycle" starts again at the top; "once" sends each request
-- once, then counts every further one as "exhausted" (and sends GET /healthz: the run is then invalid).
-- done() prints one JSON line: requests, duration, errors, latency percentiles, exhausted.

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

local function split(s, sep)
  local out, start = {}, 1
  while true do
    local i = string.find(s, sep, start, true)
    if not i then table.insert(out, string.sub(s, start)); return out end
    table.insert(out, string.sub(s, start, i - 1))
    start = i + #sep
  end
end

function init(args)
  local prefix, mode = args[1], args[2]
  cycle = (mode == "cycle")
  reqs, n, i, exhausted = {}, 0, 0, 0
  for line in io.lines(prefix .. "." .. id) do
    local f = split(line, "\t")
    local headers = {}
    if f[3] and f[3] ~= "" then
      for _, h in ipairs(split(f[3], "\31")) do
        local c = string.find(h, ": ", 1, true)
        headers[string.sub(h, 1, c - 1)] = string.sub(h, c + 2)
      end
    end
    local body = f[4]
    if body == "" then body = nil end
    n = n + 1
    reqs[n] = wrk.format(f[1], f[2], headers, body)
  end
  fallback = wrk.format("GET", "/healthz", {}, nil)
  if id == 1 then
    -- wrk calls the first thread's request() once before the run, to check it, and never sends that
    -- request: give it a copy of the first one, so that no request of the list is lost.
    i = -1
    reqs[0] = reqs[1]
  end
end

function request()
  i = i + 1
  if i > n then
    if cycle then i = 1 else exhausted = exhausted + 1; return fallback end
  end
  return reqs[i]
end

function done(summary, latency, requests)
  local ex = 0
  for _, t in ipairs(threads) do ex = ex + (t:get("exhausted") or 0) end
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d, ' ..
    '"p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d, "exhausted": %d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, ex))
end
