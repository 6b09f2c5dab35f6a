-- wrk: every show page once, then done-<k> in the markers' folder (after paths.lua). A response
-- function of its own: wrk parses and hands over every response when one exists.
function request()
  if checking then
    checking = false
    return wrk.format("GET", spare)
  end
  issued = issued + 1
  return wrk.format("GET", issued <= share and next_path() or spare)
end
function delay()
  return issued >= share and 1000 or 0
end
function response(status)
  if status ~= 301 then
    answered = answered + 1
    if answered == share then
      io.open(markers .. "/done-" .. id, "w"):close()
      wrk.thread:stop()
    end
  end
end
