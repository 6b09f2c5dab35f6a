-- wrk: the show paths of scripts/bench-serve, thread k of T taking k+1, k+1+T, ... (the
-- script puts this before every-show.lua or every-show-once.lua).
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end
function init(args)
  paths = {}
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  step = tonumber(args[2])
  markers, spare = args[3], args[4]
  index = id % #paths + 1
  share = math.floor((#paths - id - 1) / step) + 1
  issued, answered = 0, 0
  checking = id == 0
end
function next_path()
  local path = paths[index]
  index = (index - 1 + step) % #paths + 1
  return path
end
