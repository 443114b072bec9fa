-- wrk script of bench/ingest.ts: POSTs WRK_BODY with "[<id>]" replaced by a fresh id per request,
-- so every request is a new event, with WRK_AUTH as the Authorization header.
local template = os.getenv("WRK_BODY")
local auth = os.getenv("WRK_AUTH")
local run = os.getenv("WRK_RUN") or "0"
local counter = 0

request = function()
  counter = counter + 1
  local body = string.gsub(template, "%[<id>%]", run .. "-" .. counter)
  return wrk.format("POST", nil, { ["Authorization"] = auth, ["Content-Type"] = "application/json" }, body)
end
