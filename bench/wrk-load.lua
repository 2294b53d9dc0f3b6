-- wrk's script for bench/wrk.ts: requests read from WRK_REQUESTS (one per line: METHOD, a tab, the
-- path, and for a POST a tab and its JSON body), sent in turn. With WRK_UNIQUE set, every GET path
-- gets a parameter no other request has, so no answer comes from the server's response store. At the
-- end one line of JSON: the counts (errors: refused connections, timeouts and answers of status 400
-- and above) and the latency percentiles, in microseconds.
local requests = {}
local counter = 0
local unique = os.getenv("WRK_UNIQUE")
local prefix = os.getenv("WRK_PREFIX") or ""

for line in io.lines(os.getenv("WRK_REQUESTS")) do
  local method, path, body = line:match("^(%u+)\t([^\t]+)\t?(.*)$")
  local headers = {}
  if body ~= nil and body ~= "" then
    headers["Content-Type"] = "application/json"
  else
    body = nil
  end
  requests[#requests + 1] = { method = method, path = path, body = body, headers = headers }
end

request = function()
  local entry = requests[(counter % #requests) + 1]
  counter = counter + 1
  local path = entry.path
  if unique and entry.method == "GET" then
    path = path .. (path:find("?", 1, true) and "&" or "?") .. "_=" .. prefix .. counter
  end
  return wrk.format(entry.method, path, entry.headers, entry.body)
end

done = function(summary, latency)
  io.write(string.format(
    '\nWRK_RESULT {"requests":%d,"microseconds":%d,"errors":%d,"p50":%d,"p95":%d,"p99":%d}\n',
    summary.requests, summary.duration,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
