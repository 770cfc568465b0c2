-- wrk script for benchmarks/load_bench.py: POST /v1/check with rotating bodies, one
-- connection per wrk thread (so each response belongs to the request before it), and
-- optional pacing. Each request has a scheduled send time; its latency counts from that
-- time, so a stall shows as latency, not as a lower offered load (what wrk2 does).
-- Settings come from the environment:
--   RL_BODIES  file with one JSON body per line      RL_TOKEN  bearer token
--   RL_RATE    checks/s per connection (0: as fast as possible)
--   RL_OUT     where done() writes the results as JSON lines
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } rl_timespec;
int clock_gettime(int clock, rl_timespec *out);
]]
local clock = ffi.new("rl_timespec[1]")
local function now_us()
  ffi.C.clock_gettime(1, clock) -- CLOCK_MONOTONIC
  return tonumber(clock[0].tv_sec) * 1e6 + tonumber(clock[0].tv_nsec) / 1e3
end

local threads = {}
local index = 0
function setup(thread)
  index = index + 1
  thread:set("thread_index", index)
  table.insert(threads, thread)
end

-- per thread
latencies, statuses, ids = {}, {}, {}
local bodies, n, interval, next_at, scheduled = {}, 0, 0, nil, nil

function init(args)
  for line in io.lines(os.getenv("RL_BODIES")) do bodies[#bodies + 1] = line end
  local rate = tonumber(os.getenv("RL_RATE") or "0")
  if rate > 0 then interval = 1e6 / rate end
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. os.getenv("RL_TOKEN")
  n = thread_index -- threads start at different bodies
end

function delay()
  if interval == 0 then return 0 end
  local now = now_us()
  if next_at == nil then -- stagger the connections over one interval
    next_at = now + interval * ((thread_index * 0.618) % 1)
  end
  -- wrk truncates the delay to whole milliseconds: round up, so that no request leaves
  -- before its scheduled time (its latency counts from then, so it is never understated)
  local wait = math.ceil((next_at - now) / 1e3)
  return wait > 0 and wait or 0
end

function request()
  n = n + 1
  local now = now_us()
  if interval > 0 then
    scheduled = next_at or now
    next_at = scheduled + interval
  else
    scheduled = now
  end
  return wrk.format(nil, nil, nil, bodies[(n % #bodies) + 1])
end

function response(status, headers, body)
  latencies[#latencies + 1] = now_us() - scheduled
  statuses[#latencies] = status
  if status == 200 then
    ids[#ids + 1] = string.match(body, '"id":"([^"]+)"')
  end
end

function done(summary, latency, requests)
  local out = io.open(os.getenv("RL_OUT"), "w")
  out:write(string.format('{"summary": {"duration_us": %d, "requests": %d, "connect_errors": %d, "read_errors": %d, "write_errors": %d, "timeouts": %d, "status_errors": %d}}\n',
    summary.duration, summary.requests, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.timeout, summary.errors.status))
  for _, thread in ipairs(threads) do
    local lat, st, got = thread:get("latencies"), thread:get("statuses"), thread:get("ids")
    local parts = {}
    for i = 1, #lat do parts[i] = string.format("[%d,%d]", st[i], math.floor(lat[i])) end
    out:write('{"latencies": [' .. table.concat(parts, ",") .. '], "ids": ["' .. table.concat(got, '","') .. '"]}\n')
  end
  out:close()
end
