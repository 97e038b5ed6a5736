// filetype-scan: the Go filetype library (h2non) over a tree, one line per regular file
// ("path<TAB>mime"), as a peer row for Benchmarks/peers.sh. filetype.MatchFile reads the
// first 8,192 bytes of each file.
package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"gopkg.in/h2non/filetype.v1"
)

func main() {
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	defer out.Flush()
	for _, root := range os.Args[1:] {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			kind, err := filetype.MatchFile(path)
			if err != nil {
				fmt.Fprintf(out, "%s\terror: %v\n", path, err)
				return nil
			}
			fmt.Fprintf(out, "%s\t%s\n", path, kind.MIME.Value)
			return nil
		})
	}
}
