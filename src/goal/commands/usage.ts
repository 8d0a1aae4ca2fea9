/** The usage block the original prints, with the tool name it is run as. */
export function usageText(goal: string): string {
  return goal === 'goal.sh' ? USAGE : USAGE.replaceAll('goal.sh', goal);
}

const USAGE = `    goal.sh start <slug> <goal sentence>   create the goal folder, write the pointer
    goal.sh resume [<slug>]                 no slug: show the pointer, or list goals
                                            (exit 3: ask the user which); with a
                                            slug: point at that goal from here
    goal.sh close                           mark the goal closed, archive it (not its
                                            scratch), remove the pointer
    goal.sh pause                           mode off, goal kept: status=paused,
                                            pointer removed
    goal.sh list [--all]                    every goal with its status (* = active);
                                            --all lists stopped goals too
    goal.sh touch                           set the state marker's updated= to now
    goal.sh now '<entry>'                   a launch: add the entry to Now, in place
                                            of "(nothing running)"
    goal.sh land <label> ['<done line>']    a return: drop the Now entry "-> <label> ->",
                                            "(nothing running)" when Now empties; with
                                            a done line (the item is finished) append
                                            "- YYYY-MM-DD HH:MMZ <done line>" to the end of Done;
                                            label - when no agent ran

touch, now and land act on the active goal's state file and set updated=.
The launch directory is the current directory.
start and resume pause the goal that is active, if it is another one.
Exit 0 done, 1 refused (the message says why), 2 usage, 3 the user must
choose.
`;
