# bash completion for bankscope: commands, each command's options, architectures (from
# `bankscope list --archs`), library and user pattern names (from `bankscope list --names`) and
# files. Installed as "bankscope" in bash-completion's completions folder.

_bankscope_words() {  # _bankscope_words BIN ARGS...: output of the program, nothing on failure
    local bin=$1
    shift
    "$bin" "$@" 2>/dev/null
}

_bankscope() {
    local cur prev bin cmd i
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    bin=${COMP_WORDS[0]}
    cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        analyze | measure | kernel | sweep | export | list | import | record | diff) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    # record ... -- PROGRAM ARGS: after "--", the program (a command or a file), then its arguments
    if [ "$cmd" = record ]; then
        for ((i = 2; i < COMP_CWORD; i++)); do
            if [ "${COMP_WORDS[i]}" = -- ]; then
                if ((COMP_CWORD == i + 1)); then
                    COMPREPLY=($(compgen -c -- "$cur") $(compgen -f -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
                return
            fi
        done
    fi
    # --arch=NAME: one word ("--arch=sm_8") or, where '=' breaks words, "--arch" "=" "sm_8"
    if [[ $cur == --arch=* ]]; then
        COMPREPLY=($(compgen -P --arch= -W "$(_bankscope_words "$bin" list --archs)" -- "${cur#--arch=}"))
        return
    fi
    [[ $prev == = && ${COMP_WORDS[COMP_CWORD - 2]} == --arch ]] && prev=--arch
    case $prev in
    --arch)
        COMPREPLY=($(compgen -W "$(_bankscope_words "$bin" list --archs)" -- "$cur"))
        return ;;
    --svg)
        COMPREPLY=($(compgen -f -X '!*.svg' -- "$cur") $(compgen -d -- "$cur"))
        return ;;
    -o)
        COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
        return ;;
    -I)
        COMPREPLY=($(compgen -d -- "$cur"))
        return ;;
    --warp | --access | --iteration | --max-pad | --bench-redraw | --block | --smem | --loop | --timeout | \
        --kernel | -D | --keys | --launch | --block-index | --max-instructions)
        return ;;
    esac
    local opts
    case $cmd in
    analyze) opts="--json --warp --all --summary --sass --arch --force" ;;
    measure) opts="--json --access --iteration --arch" ;;
    kernel) opts="--ptx --access --iteration --arch" ;;
    sweep) opts="--json --max-pad --all --measure --arch --force --source" ;;
    diff) opts="--json --arch" ;;
    export) opts="--svg --access --warp --iteration --arch --force" ;;
    list) opts="--json --names --archs" ;;
    import) opts="--block --kernel -D -I --smem --loop --timeout -o --force" ;;
    record) opts="--kernel --launch --block-index --max-instructions -o --force --verbose --sequential --no-time --help --" ;;
    *) opts="--help --version --no-gpu --no-color --no-mouse --present --force --snapshot --keys --source --bench-redraw --bench-startup" ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    case $cmd in
    list) return ;;
    import) COMPREPLY=($(compgen -f -X '!*.cu*' -- "$cur") $(compgen -d -- "$cur")); return ;;
    record) COMPREPLY=($(compgen -c -- "$cur") $(compgen -f -- "$cur")); return ;;
    esac
    local words=
    [ -z "$cmd" ] && words="analyze measure kernel sweep export list import record diff"
    words="$words $(_bankscope_words "$bin" list --names)"
    COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
    [ -z "$cmd" ] && COMPREPLY+=($(compgen -f -X '!*.cu' -- "$cur"))
    return 0
}
complete -o filenames -F _bankscope bankscope
