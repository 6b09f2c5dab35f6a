-- wrk: every show page in turn for the whole run (after paths.lua).
function request()
  if checking then
    checking = false
    return wrk.format("GET", spare)
  end
  return wrk.format("GET", next_path())
end
