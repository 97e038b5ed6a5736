// mimetype-scan: the Go mimetype library over a tree, one line per regular file
// ("path<TAB>mime"), as a peer row for Benchmarks/peers.sh. mimetype reads the first
// 3,072 bytes of each file (its default limit).
package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gabriel-vasile/mimetype"
)

func main() {
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	defer out.Flush()
	for _, root := range os.Args[1:] {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			m, err := mimetype.DetectFile(path)
			if err != nil {
				fmt.Fprintf(out, "%s\terror: %v\n", path, err)
				return nil
			}
			fmt.Fprintf(out, "%s\t%s\n", path, m.String())
			return nil
		})
	}
}
